package main

import (
	"bytes"
	"encoding/json"
	"encoding/xml"
	"fmt"
	"sort"
	"strings"
	"text/template"

	"github.com/blang/semver"
	javagen "github.com/pulumi/pulumi-java/pkg/codegen/java"
	"github.com/pulumi/pulumi/pkg/v3/codegen/schema"
)

// The Maven project beside the generator's Gradle one: pom.xml, a .gitignore, and the two resources
// the Gradle build writes at build time (its genPulumiResources task) and the generated Utilities
// class reads, version.txt and plugin.json, as filtered resources under src/maven/resources (Gradle
// does not look there), so the jar `mvn install` builds holds them as Gradle's would.

// javaSdkVersion is the com.pulumi:pulumi the pom depends on, unless the schema's language.java names
// one: the newest release Maven Central serves, and not older than the generator (pulumi-java v1.34.0;
// Central serves no 1.21 to 1.36.0 here, 1.20.0 is older than the generator). The generator itself
// writes its placeholder 1.0.0 into build.gradle when the schema names none.
const javaSdkVersion = "1.36.1"

// javaSdkRuntime is what com.pulumi:pulumi 1.36.1 itself depends on (its pom, runtime scope) of the
// libraries the generator adds for generated code (gson, jsr305). Gradle would resolve the higher of
// its and the generator's versions; Maven takes the nearest declaration, so the pom states the higher
// of the two rather than downgrade the SDK's own gson (the generator asks for 2.8.9).
var javaSdkRuntime = map[string]string{
	"com.google.code.gson:gson":       "2.10",
	"com.google.code.findbugs:jsr305": "3.0.2",
}

// Maven's own plugins, pinned so that a build does not depend on Maven's defaults (Maven 3.8.7 binds
// maven-compiler-plugin 3.1, which predates `release`).
var mavenPlugins = []struct{ ArtifactID, Version string }{
	{"maven-clean-plugin", "3.4.0"},
	{"maven-resources-plugin", "3.3.1"},
	{"maven-compiler-plugin", "3.13.0"},
	{"maven-surefire-plugin", "3.5.2"},
	{"maven-jar-plugin", "3.4.2"},
	{"maven-install-plugin", "3.1.3"},
	{"maven-deploy-plugin", "3.1.3"},
}

// mavenGroupID is the pom's groupId: Maven Central grants a namespace only to whoever proves it, and
// io.github.<name> is proved by the GitHub account <name>, which is the schema's publisher (the Go
// SDK's import path is github.com/pulumi-wsbridge/...). The generator's build.gradle says group
// "com.pulumi" (its default base package; the Java package is com.pulumi.wsbridge) unless the schema's
// language.java sets basePackage, which would move the Java package too.
func mavenGroupID(pkg *schema.Package) (string, error) {
	publisher := strings.ToLower(strings.TrimSpace(pkg.Publisher))
	if publisher == "" {
		return "", fmt.Errorf("the schema has no publisher, from which the Maven groupId is made")
	}
	return "io.github." + publisher, nil
}

type mavenDependency struct{ GroupID, ArtifactID, Version string }

type pomContext struct {
	GroupID, ArtifactID, Version, Name, Description, URL string
	License                                              bool
	Dependencies                                         []mavenDependency
	Plugins                                              []struct{ ArtifactID, Version string }
}

// mavenProject returns pom.xml and the filtered resources. rawJava is the schema's own language.java
// (nil if none): a com.pulumi:pulumi version there wins over javaSdkVersion.
func mavenProject(pkg *schema.Package, info *javagen.PackageInfo, rawJava []byte) (map[string][]byte, error) {
	if pkg.Parameterization != nil || pkg.ExtensionParameterization != nil {
		return nil, fmt.Errorf("the Maven project does not handle parameterized packages")
	}
	groupID, err := mavenGroupID(pkg)
	if err != nil {
		return nil, err
	}
	version := "0.0.1" // the generator's default
	if pkg.Version != nil {
		version = pkg.Version.String()
	}
	deps, err := mavenDependencies(info.Dependencies, rawJava)
	if err != nil {
		return nil, err
	}
	ctx := pomContext{
		GroupID:      groupID,
		ArtifactID:   pkg.Name,
		Version:      version,
		Name:         pkg.Name,
		Description:  strings.TrimSpace(pkg.Description),
		License:      pkg.License == "Apache-2.0",
		Dependencies: deps,
		Plugins:      mavenPlugins,
	}
	// The generator sets a placeholder repository (https://example.com) on a package without one.
	if pkg.Repository != "https://example.com" {
		ctx.URL = pkg.Repository
	}
	var pom bytes.Buffer
	if err := pomTemplate.Execute(&pom, ctx); err != nil {
		return nil, err
	}

	// Where Gradle's genPulumiResources writes them: the root project's name (base package + package
	// name) with dots as slashes, e.g. com/pulumi/wsbridge/.
	dir := "src/maven/resources/" + strings.ReplaceAll(info.BasePackageOrDefault()+pkg.Name, ".", "/") + "/"
	var plugin bytes.Buffer
	plugin.WriteString("{\n    \"resource\": true,\n    \"name\": " + jsonString(pkg.Name) + ",\n")
	if pkg.PluginDownloadURL != "" {
		plugin.WriteString("    \"server\": " + jsonString(pkg.PluginDownloadURL) + ",\n")
	}
	plugin.WriteString("    \"version\": \"${project.version}\"\n}")
	return map[string][]byte{
		"pom.xml":           pom.Bytes(),
		dir + "version.txt": []byte("${project.version}"),
		dir + "plugin.json": plugin.Bytes(),
		// What `mvn install` (target/) and a Gradle build (build/, .gradle/) leave in the directory.
		".gitignore": []byte("target/\nbuild/\n.gradle/\n"),
	}, nil
}

// mavenDependencies: the generator's dependency list (build.gradle's), com.pulumi:pulumi at
// javaSdkVersion unless the schema names a version, and each library the SDK also brings at the
// higher of the two versions (javaSdkRuntime).
func mavenDependencies(generated map[string]string, rawJava []byte) ([]mavenDependency, error) {
	var fromSchema struct {
		Dependencies map[string]string `json:"dependencies"`
	}
	if len(rawJava) > 0 {
		if err := json.Unmarshal(rawJava, &fromSchema); err != nil {
			return nil, fmt.Errorf("the schema's language.java: %w", err)
		}
	}
	versions := map[string]string{}
	for key, version := range generated {
		versions[key] = version
	}
	if _, ok := fromSchema.Dependencies["com.pulumi:pulumi"]; !ok {
		versions["com.pulumi:pulumi"] = javaSdkVersion
	}
	for key, sdkVersion := range javaSdkRuntime {
		if current, ok := versions[key]; ok && lessVersion(current, sdkVersion) {
			versions[key] = sdkVersion
		}
	}
	keys := make([]string, 0, len(versions))
	for key := range versions {
		keys = append(keys, key)
	}
	sort.Strings(keys)
	deps := make([]mavenDependency, 0, len(keys))
	for _, key := range keys {
		group, artifact, ok := strings.Cut(key, ":")
		if !ok {
			return nil, fmt.Errorf("dependency %q is not groupId:artifactId", key)
		}
		deps = append(deps, mavenDependency{group, artifact, versions[key]})
	}
	return deps, nil
}

// lessVersion compares two versions leniently ("2.10" is 2.10.0); one that does not parse is not less.
func lessVersion(a, b string) bool {
	va, errA := semver.ParseTolerant(a)
	vb, errB := semver.ParseTolerant(b)
	return errA == nil && errB == nil && va.LT(vb)
}

func jsonString(s string) string {
	b, _ := json.Marshal(s)
	return string(b)
}

func xmlText(s string) string {
	var b strings.Builder
	_ = xml.EscapeText(&b, []byte(s))
	return b.String()
}

var pomTemplate = template.Must(template.New("pom.xml").Funcs(template.FuncMap{"xml": xmlText}).Parse(`<?xml version="1.0" encoding="UTF-8"?>
<!-- *** WARNING: this file was generated by scripts/generate-java-sdk.sh (scripts/sdkgen/java). *** -->
<!-- *** Do not edit by hand: the Maven build of the SDK, beside the generator's build.gradle. *** -->
<project xmlns="http://maven.apache.org/POM/4.0.0"
         xmlns:xsi="http://www.w3.org/2001/XMLSchema-instance"
         xsi:schemaLocation="http://maven.apache.org/POM/4.0.0 https://maven.apache.org/xsd/maven-4.0.0.xsd">
  <modelVersion>4.0.0</modelVersion>

  <groupId>{{xml .GroupID}}</groupId>
  <artifactId>{{xml .ArtifactID}}</artifactId>
  <version>{{xml .Version}}</version>
  <packaging>jar</packaging>

  <name>{{xml .Name}}</name>
  <description>{{xml .Description}}</description>
{{- if .URL}}
  <url>{{xml .URL}}</url>
{{- end}}
{{- if .License}}

  <licenses>
    <license>
      <name>The Apache License, Version 2.0</name>
      <url>http://www.apache.org/licenses/LICENSE-2.0.txt</url>
    </license>
  </licenses>
{{- end}}
{{- if .URL}}

  <scm>
    <url>{{xml .URL}}</url>
  </scm>
{{- end}}

  <properties>
    <project.build.sourceEncoding>UTF-8</project.build.sourceEncoding>
    <!-- The generator's build.gradle asks for a Java 11 toolchain. -->
    <maven.compiler.release>11</maven.compiler.release>
  </properties>

  <dependencies>
{{- range .Dependencies}}
    <dependency>
      <groupId>{{xml .GroupID}}</groupId>
      <artifactId>{{xml .ArtifactID}}</artifactId>
      <version>{{xml .Version}}</version>
    </dependency>
{{- end}}
  </dependencies>

  <build>
    <resources>
      <resource>
        <directory>src/main/resources</directory>
      </resource>
      <!-- version.txt and plugin.json, which build.gradle writes in its genPulumiResources task. -->
      <resource>
        <directory>src/maven/resources</directory>
        <filtering>true</filtering>
      </resource>
    </resources>
    <pluginManagement>
      <plugins>
{{- range .Plugins}}
        <plugin>
          <groupId>org.apache.maven.plugins</groupId>
          <artifactId>{{.ArtifactID}}</artifactId>
          <version>{{.Version}}</version>
        </plugin>
{{- end}}
      </plugins>
    </pluginManagement>
  </build>
</project>
`))
