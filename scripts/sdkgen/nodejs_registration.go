package main

import (
	_ "embed"
	"fmt"
	"regexp"
	"strings"
)

// The one change sdkgen makes to what Pulumi's Node.js generator writes (CONTRIBUTING.md, "Package schema and SDKs"): every
// resource constructor registers with the Node.js SDK's promise stack traces paused
// (overlays/nodejs/registration.ts says why). The generator has no hook for it, so the call to the
// base constructor is wrapped after generation; a file that does not have exactly one such call fails
// the run rather than being left unwrapped.

//go:embed overlays/nodejs/registration.ts
var nodejsRegistration []byte

const nodejsRegistrationFile = "registration.ts"

// superCall matches the generated base-constructor call of a resource class, with its indentation.
var superCall = regexp.MustCompile(`(?m)^( +)super\((\w+)\.__pulumiType, name, resourceInputs, opts(, \w+)?\);\n`)

// withPausedRegistration wraps the base-constructor call of every resource file and adds the helper.
func withPausedRegistration(files map[string][]byte) (map[string][]byte, error) {
	out := make(map[string][]byte, len(files)+1)
	for name, contents := range files {
		text := string(contents)
		if !strings.HasSuffix(name, ".ts") || !strings.Contains(text, "extends pulumi.CustomResource") {
			out[name] = contents
			continue
		}
		calls := superCall.FindAllStringSubmatchIndex(text, -1)
		if len(calls) != 1 {
			return nil, fmt.Errorf("%s: expected one base-constructor call of the generated form, found %d", name, len(calls))
		}
		indent := text[calls[0][2]:calls[0][3]]
		call := strings.TrimSpace(text[calls[0][0]:calls[0][1]])
		wrapped := indent + "const stackTraces = registration.pauseStackTraces();\n" +
			indent + "try {\n" +
			indent + "    " + call + "\n" +
			indent + "} catch (error) {\n" +
			indent + "    stackTraces.rethrow(error);\n" +
			indent + "} finally {\n" +
			indent + "    stackTraces.resume();\n" +
			indent + "}\n"
		text = text[:calls[0][0]] + wrapped + text[calls[0][1]:]
		const utilitiesImport = "import * as utilities from \"./utilities\";\n"
		if strings.Count(text, utilitiesImport) != 1 {
			return nil, fmt.Errorf("%s: expected one import of ./utilities to add ./registration beside", name)
		}
		text = strings.Replace(text, utilitiesImport, utilitiesImport+"import * as registration from \"./registration\";\n", 1)
		out[name] = []byte(text)
	}
	if _, taken := out[nodejsRegistrationFile]; taken {
		return nil, fmt.Errorf("the generator wrote %s itself", nodejsRegistrationFile)
	}
	out[nodejsRegistrationFile] = nodejsRegistration
	return out, nil
}
