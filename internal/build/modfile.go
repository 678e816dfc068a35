package build

import (
	"context"
	"encoding/json"
	"fmt"
	"net/url"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strings"
)

// sdkPseudo is the version the go.mod copy requires the SDK at; the replace
// points every version of the SDK at the checkout.
const sdkPseudo = "v0.0.0-00010101000000-000000000000"

// goEnv is the environment of every go command the build runs: no
// workspace, and the toolchain that was found, never one that a go.mod's
// toolchain or go line would have the go command download.
func goEnv() []string {
	return append(os.Environ(), "GOWORK=off", "GOTOOLCHAIN=local")
}

// ProxyDir is where a Vigor checkout keeps the modules that the SDK needs,
// laid out as a module proxy (GOPROXY=file://...), so that Vigor and the
// plugins that need nothing else build with no network and an empty
// module cache. scripts/update-goproxy.sh writes it from go.mod, and
// TestGoproxyInSync checks it.
const ProxyDir = "third_party/goproxy"

// buildEnv is goEnv for go build and go mod: the checkout's ProxyDir comes
// first on GOPROXY, before the user's own proxies (or off).
func (b *builder) buildEnv(ctx context.Context, sdk string) []string {
	b.proxyOnce.Do(func() {
		cmd := exec.CommandContext(ctx, b.goPath, "env", "GOPROXY")
		cmd.Env = goEnv()
		out, err := cmd.Output()
		user := strings.TrimSpace(string(out))
		if err != nil || user == "" {
			user = "off"
		}
		b.proxy = "GOPROXY=" + ProxyURL(sdk) + "," + user
	})
	return append(goEnv(), b.proxy)
}

// ProxyURL is the file:// URL of the ProxyDir of the checkout sdk, escaped
// for a GOPROXY list (whose separators are , and |).
func ProxyURL(sdk string) string {
	u := (&url.URL{Scheme: "file", Path: filepath.ToSlash(filepath.Join(sdk, ProxyDir))}).String()
	return strings.NewReplacer(",", "%2C", "|", "%7C").Replace(u)
}

// requirement is one require line of a go.mod.
type requirement struct {
	Path    string
	Version string
}

// requirements reads the require lines of the go.mod at path.
func (b *builder) requirements(ctx context.Context, path string) ([]requirement, error) {
	cmd := exec.CommandContext(ctx, b.goPath, "mod", "edit", "-json", path)
	cmd.Dir = filepath.Dir(path)
	cmd.Env = goEnv()
	var stderr strings.Builder
	cmd.Stderr = &stderr
	out, err := cmd.Output()
	if err != nil {
		return nil, fmt.Errorf("cannot read %s: %s", path, firstError(splitLines([]byte(stderr.String())), err))
	}
	var mod struct{ Require []requirement }
	if err := json.Unmarshal(out, &mod); err != nil {
		return nil, fmt.Errorf("cannot read %s: go mod edit -json printed no module: %w", path, err)
	}
	return mod.Require, nil
}

// sdkRequirements are the SDK checkout's own requirements, read once.
func (b *builder) sdkRequirements(ctx context.Context, sdk string) ([]requirement, error) {
	b.reqOnce.Do(func() {
		b.sdkReq, b.sdkReqErr = b.requirements(ctx, filepath.Join(sdk, "go.mod"))
	})
	return b.sdkReq, b.sdkReqErr
}

// modfile writes, into work, a copy of the plugin's go.mod that uses the
// SDK checkout, and a go.sum that has both modules' sums.
//
// The copy requires the SDK at sdkPseudo, replaced by the checkout, and
// every requirement of the checkout's go.mod at least at the checkout's
// version: those are what the checkout needs, and their sums are in its
// go.sum, so the build needs nothing from the network that the plugin's
// own module does not. Nothing else changes: the build uses the copy
// read-only.
func (b *builder) modfile(ctx context.Context, modRoot, sdk, work string) (string, []string, error) {
	src, err := os.ReadFile(filepath.Join(modRoot, "go.mod"))
	if err != nil {
		return "", nil, err
	}
	dst := filepath.Join(work, "go.mod")
	if err := os.WriteFile(dst, src, 0o600); err != nil {
		return "", nil, err
	}
	var sums []byte
	for _, f := range []string{filepath.Join(modRoot, "go.sum"), filepath.Join(sdk, "go.sum")} {
		if s, err := os.ReadFile(f); err == nil {
			sums = append(sums, s...)
			if len(s) > 0 && s[len(s)-1] != '\n' {
				sums = append(sums, '\n')
			}
		}
	}
	if err := os.WriteFile(filepath.Join(work, "go.sum"), sums, 0o600); err != nil {
		return "", nil, err
	}
	sdkReq, err := b.sdkRequirements(ctx, sdk)
	if err != nil {
		return "", nil, err
	}
	plugReq, err := b.requirements(ctx, dst)
	if err != nil {
		return "", nil, fmt.Errorf("cannot read %s: %w", filepath.Join(modRoot, "go.mod"), err)
	}
	args := []string{"mod", "edit", "-require=" + SDKModule + "@" + sdkPseudo, "-replace=" + SDKModule + "=" + sdk}
	args = append(args, raise(plugReq, sdkReq)...)
	cmd := exec.CommandContext(ctx, b.goPath, append(args, dst)...)
	cmd.Dir = work
	cmd.Env = b.buildEnv(ctx, sdk)
	if out, err := cmd.CombinedOutput(); err != nil {
		lines := splitLines(out)
		return "", lines, fmt.Errorf("cannot prepare %s: %s", filepath.Join(modRoot, "go.mod"), firstError(lines, err))
	}
	return dst, nil, nil
}

// raise returns the go mod edit flags that require each module of sdk at
// least at its version there, where have requires it lower or not at all.
// The SDK's own module is left out: the copy replaces it.
func raise(have, sdk []requirement) []string {
	cur := make(map[string]string, len(have))
	for _, r := range have {
		cur[r.Path] = r.Version
	}
	var flags []string
	for _, r := range sdk {
		if r.Path == SDKModule {
			continue
		}
		if v, ok := cur[r.Path]; !ok || compareVersions(v, r.Version) < 0 {
			flags = append(flags, "-require="+r.Path+"@"+r.Version)
		}
	}
	return flags
}

// compareVersions compares two module versions (semantic versions with a
// leading v, pre-releases and pseudo-versions included; build metadata
// such as +incompatible does not count). It returns -1, 0 or +1. A version
// it cannot parse compares equal, so that it is left as it is.
func compareVersions(a, b string) int {
	pa, oka := parseVersion(a)
	pb, okb := parseVersion(b)
	if !oka || !okb {
		return 0
	}
	for i := range 3 {
		if c := compareNumeric(pa.core[i], pb.core[i]); c != 0 {
			return c
		}
	}
	switch {
	case pa.pre == "" && pb.pre == "":
		return 0
	case pa.pre == "":
		return 1
	case pb.pre == "":
		return -1
	}
	ia, ib := strings.Split(pa.pre, "."), strings.Split(pb.pre, ".")
	for i := 0; i < len(ia) && i < len(ib); i++ {
		na, nb := isNumeric(ia[i]), isNumeric(ib[i])
		var c int
		switch {
		case na && nb:
			c = compareNumeric(ia[i], ib[i])
		case na:
			c = -1
		case nb:
			c = 1
		default:
			c = strings.Compare(ia[i], ib[i])
		}
		if c != 0 {
			return c
		}
	}
	return compareNumeric(fmt.Sprint(len(ia)), fmt.Sprint(len(ib)))
}

type version struct {
	core [3]string
	pre  string
}

func parseVersion(v string) (version, bool) {
	var p version
	rest, ok := strings.CutPrefix(v, "v")
	if !ok {
		return p, false
	}
	rest, _, _ = strings.Cut(rest, "+")
	rest, p.pre, _ = strings.Cut(rest, "-")
	parts := strings.Split(rest, ".")
	if len(parts) != 3 {
		return p, false
	}
	for i, n := range parts {
		if !isNumeric(n) {
			return p, false
		}
		p.core[i] = n
	}
	return p, true
}

func isNumeric(s string) bool {
	if s == "" {
		return false
	}
	for _, c := range s {
		if c < '0' || c > '9' {
			return false
		}
	}
	return true
}

// compareNumeric compares two strings of digits as numbers of any size.
func compareNumeric(a, b string) int {
	a, b = strings.TrimLeft(a, "0"), strings.TrimLeft(b, "0")
	if len(a) != len(b) {
		if len(a) < len(b) {
			return -1
		}
		return 1
	}
	return strings.Compare(a, b)
}

var (
	posPrefix = regexp.MustCompile(`^(\S+\.go:\d+(?::\d+)?): `)
	noModule  = regexp.MustCompile(`(?:cannot find module providing|no required module provides) package ([^\s:;]+)`)
	noSum     = regexp.MustCompile(`missing go\.sum entry for (?:module providing package ([^\s:;]+)|go\.mod file)`)
	newerGo   = regexp.MustCompile(`requires go >= ([^\s;)]+) \(running go ([^\s;)]+)`)
	notTidy   = regexp.MustCompile(`updates to go\.mod needed`)
)

// explain turns the go command's failure into one line for the user: what
// is wrong with the plugin's module and what to run, where it can tell,
// else the first error (firstError).
func explain(lines []string, modRoot string, err error) string {
	goMod, goSum := filepath.Join(modRoot, "go.mod"), filepath.Join(modRoot, "go.sum")
	tidy := "run `go mod tidy` in " + modRoot
	at := func(l string) string {
		if m := posPrefix.FindStringSubmatch(l); m != nil {
			return m[1] + ": "
		}
		return ""
	}
	for _, l := range lines {
		if m := newerGo.FindStringSubmatch(l); m != nil {
			return fmt.Sprintf("%s requires Go %s, newer than the installed Go %s: install Go %s or newer (or set g:vigor#go to it)", goMod, m[1], m[2], m[1])
		}
	}
	for _, l := range lines {
		if m := noSum.FindStringSubmatch(l); m != nil {
			what := "a requirement"
			if m[1] != "" {
				what = "the module of package " + m[1]
			}
			return fmt.Sprintf("%s%s lacks the checksum of %s: %s", at(l), goSum, what, tidy)
		}
		if m := noModule.FindStringSubmatch(l); m != nil {
			return fmt.Sprintf("%sno requirement in %s provides package %s: %s", at(l), goMod, m[1], tidy)
		}
		if notTidy.MatchString(l) {
			return fmt.Sprintf("%s is not tidy (the go command would update it): %s", goMod, tidy)
		}
	}
	return firstError(lines, err)
}
