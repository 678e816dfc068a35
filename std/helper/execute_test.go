package helper

import (
	"slices"
	"testing"
)

func TestJoinContinued(t *testing.T) {
	for _, tt := range []struct {
		script string
		want   []string
	}{
		{"echo 1", []string{"echo 1"}},
		{"let x = [1,\n      \\ 2]\necho x", []string{"let x = [1, 2]", "echo x"}},
		{"let x = 1\n  \"\\ a comment\n  \\ + 2", []string{"let x = 1 + 2"}},
		{"\\ starts\necho 1", []string{"\\ starts", "echo 1"}}, // nothing to continue
		{"echo 1\r\necho 2\r\n", []string{"echo 1", "echo 2", ""}},
		{"", []string{""}},
	} {
		if got := joinContinued(tt.script); !slices.Equal(got, tt.want) {
			t.Errorf("joinContinued(%q) = %q, want %q", tt.script, got, tt.want)
		}
	}
}
