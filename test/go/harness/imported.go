package harness

import (
	"encoding/json"
	"fmt"
	"reflect"
	"strings"

	"github.com/pulumi-wsbridge/pulumi-wsbridge/sdk/go/wsbridge"
	"github.com/pulumi/pulumi/sdk/v3/go/common/apitype"
	"github.com/pulumi/pulumi/sdk/v3/go/pulumi"
)

// InputsOf are the inputs the deployment holds for the resource named `name` (its URN's last part).
func InputsOf(deployment apitype.UntypedDeployment, name string) (map[string]any, error) {
	var state struct {
		Resources []struct {
			URN    string         `json:"urn"`
			Inputs map[string]any `json:"inputs"`
		} `json:"resources"`
	}
	if err := json.Unmarshal(deployment.Deployment, &state); err != nil {
		return nil, err
	}
	for _, r := range state.Resources {
		if strings.HasSuffix(r.URN, "::"+name) {
			return r.Inputs, nil
		}
	}
	return nil, fmt.Errorf("the state holds no resource named %q", name)
}

// WorkspaceArgsFrom declares, as a Go program would, the Workspace inputs the state holds (what
// `pulumi import` printed as the program to write): each input to the field of its name. An input the
// SDK's arguments have no field for, or of a type the test does not expect, is an error.
func WorkspaceArgsFrom(inputs map[string]any) (*wsbridge.WorkspaceArgs, error) {
	args := &wsbridge.WorkspaceArgs{}
	target := reflect.ValueOf(args).Elem()
	for key, value := range inputs {
		field := target.FieldByName(strings.ToUpper(key[:1]) + key[1:])
		if !field.IsValid() {
			return nil, fmt.Errorf("WorkspaceArgs has no field for the input %q", key)
		}
		input, err := inputOf(key, value)
		if err != nil {
			return nil, err
		}
		if !reflect.TypeOf(input).AssignableTo(field.Type()) {
			return nil, fmt.Errorf("the input %q (%T) does not fit WorkspaceArgs.%s (%s)", key, value, field.Type().Name(), field.Type())
		}
		field.Set(reflect.ValueOf(input))
	}
	return args, nil
}

// inputOf is the Pulumi input a program writes for a plain value of the state.
func inputOf(key string, value any) (any, error) {
	switch v := value.(type) {
	case string:
		return pulumi.String(v), nil
	case bool:
		return pulumi.Bool(v), nil
	case float64:
		if v != float64(int(v)) {
			return nil, fmt.Errorf("the input %q is not a whole number: %v", key, v)
		}
		return pulumi.Int(int(v)), nil
	case []any:
		items := make([]string, 0, len(v))
		for _, item := range v {
			text, ok := item.(string)
			if !ok {
				return nil, fmt.Errorf("the input %q holds %T, not a string", key, item)
			}
			items = append(items, text)
		}
		return pulumi.ToStringArray(items), nil
	case map[string]any:
		if key == "settingOverwrites" {
			overwrites := wsbridge.WorkspaceSettingOverwritesArgs{}
			if b, ok := v["executionMode"].(bool); ok {
				overwrites.ExecutionMode = pulumi.Bool(b)
			}
			if b, ok := v["agentPool"].(bool); ok {
				overwrites.AgentPool = pulumi.Bool(b)
			}
			if len(v) != countSet(overwrites.ExecutionMode != nil, overwrites.AgentPool != nil) {
				return nil, fmt.Errorf("the input %q has keys WorkspaceSettingOverwritesArgs does not: %v", key, v)
			}
			return overwrites.ToWorkspaceSettingOverwritesPtrOutput(), nil
		}
		items := make(map[string]string, len(v))
		for k, item := range v {
			text, ok := item.(string)
			if !ok {
				return nil, fmt.Errorf("the input %q.%s holds %T, not a string", key, k, item)
			}
			items[k] = text
		}
		return pulumi.ToStringMap(items), nil
	}
	return nil, fmt.Errorf("the input %q holds %T, which the test does not declare", key, value)
}

func countSet(set ...bool) int {
	n := 0
	for _, s := range set {
		if s {
			n++
		}
	}
	return n
}
