package helper

import (
	"context"
	"fmt"
	"strings"

	"github.com/vigorvim/vigor"
)

// scriptVar is the l: variable that holds Execute's script.
const scriptVar = "vigor_script_"

// Execute runs script, Vim script of one or more lines, with the keys of
// vars visible as l: variables (vars may be nil), as execute() runs a
// List of lines in a function, and returns what it printed (:echo, :ls),
// which it does not show. :if, :for, :try and :function blocks may span
// lines; a line that starts with a backslash continues the line before
// it, and one that starts with "\ (a comment in a continuation) is
// dropped, as a script file reads them. An error ends the script and is
// returned, wrapped, with the editor's message.
//
// Execute is one call, and works in a batch (its output through
// b.Into). vars may not have the key vigor_script_, which holds the
// script.
func Execute(ctx context.Context, c vigor.Caller, script string, vars map[string]any) (string, error) {
	if _, ok := vars[scriptVar]; ok {
		return "", fmt.Errorf("helper.Execute: the variable l:%s is the script's own; name yours otherwise", scriptVar)
	}
	all := make(map[string]any, len(vars)+1)
	for k, v := range vars {
		all[k] = v
	}
	all[scriptVar] = joinContinued(script)
	out, err := vigor.EvalAs[string](ctx, c, "execute(l:"+scriptVar+")", all)
	if err != nil {
		return "", fmt.Errorf("helper.Execute: %w", err)
	}
	return out, nil
}

// joinContinued returns the lines of script with continuation lines
// (:help line-continuation) joined to the line they continue.
func joinContinued(script string) []string {
	var lines []string
	for _, l := range strings.Split(script, "\n") {
		l = strings.TrimSuffix(l, "\r")
		t := strings.TrimLeft(l, " \t")
		switch {
		case strings.HasPrefix(t, `"\ `) && len(lines) > 0:
			continue
		case strings.HasPrefix(t, `\`) && len(lines) > 0:
			lines[len(lines)-1] += t[1:]
		default:
			lines = append(lines, l)
		}
	}
	return lines
}
