// Workspaces, workspace locks, SSH key assignments, data retention policies, tag bindings, remote state consumers and private registry module version deprecations of the Workspace Management and Module Deprecation API, with lookups of workspaces and module versions.
package wsbridge
