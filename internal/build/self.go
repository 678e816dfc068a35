package build

import (
	"bufio"
	"io/fs"
	"os"
	"path/filepath"
	"strconv"
	"strings"
)

// The vigor command's own freshness. The runtime names the command's build
// directory by a hash of its sources (those of cmd/vigor and the packages
// it may import: the SDK's root files and internal/, and go.mod and go.sum),
// and writes their list there, as the file "sources", one line per file:
// "path:mtime:size" (mtime in seconds, -1 for a file missing). A start does
// not list them again: it runs the command it used last, and the command
// compares that list with the checkout (SourcesFresh), so that a changed
// checkout still rebuilds it.

// VigorSources returns the files of the checkout root that the vigor
// command is built from, as the runtime lists them: root + "/" + the path
// below it, hidden files and directories left out (as Vim's glob() leaves
// them), go.mod and go.sum always.
func VigorSources(root string) ([]string, error) {
	var files []string
	ents, err := os.ReadDir(root)
	if err != nil {
		return nil, err
	}
	for _, e := range ents {
		if !e.IsDir() && strings.HasSuffix(e.Name(), ".go") && !strings.HasPrefix(e.Name(), ".") {
			files = append(files, root+"/"+e.Name())
		}
	}
	for _, sub := range []string{"internal", "cmd/vigor"} {
		dir := filepath.Join(root, filepath.FromSlash(sub))
		err := filepath.WalkDir(dir, func(path string, d fs.DirEntry, err error) error {
			if err != nil {
				if path == dir && os.IsNotExist(err) {
					return filepath.SkipDir
				}
				return err
			}
			if strings.HasPrefix(d.Name(), ".") && path != dir {
				if d.IsDir() {
					return filepath.SkipDir
				}
				return nil
			}
			if !d.IsDir() && strings.HasSuffix(d.Name(), ".go") {
				rel, _ := filepath.Rel(root, path)
				files = append(files, root+"/"+filepath.ToSlash(rel))
			}
			return nil
		})
		if err != nil {
			return nil, err
		}
	}
	return append(files, root+"/go.mod", root+"/go.sum"), nil
}

// SourcesFresh reports whether the list in the file stamp (see above)
// names exactly the vigor command's sources in root now, each with the
// time and size that it has now.
func SourcesFresh(root, stamp string) bool {
	f, err := os.Open(stamp)
	if err != nil {
		return false
	}
	defer f.Close()
	listed := map[string]string{}
	sc := bufio.NewScanner(f)
	sc.Buffer(make([]byte, 64*1024), 1<<20)
	for sc.Scan() {
		line := sc.Text()
		i := strings.LastIndexByte(line, ':')
		if i < 0 {
			return false
		}
		j := strings.LastIndexByte(line[:i], ':')
		if j < 0 {
			return false
		}
		listed[line[:j]] = line[j+1:]
	}
	if sc.Err() != nil {
		return false
	}
	files, err := VigorSources(root)
	if err != nil || len(files) != len(listed) {
		return false
	}
	for _, p := range files {
		want, ok := listed[p]
		if !ok || want != statStamp(p) {
			return false
		}
	}
	return true
}

// statStamp is "mtime:size" as Vim's getftime() and getfsize() give them.
func statStamp(path string) string {
	st, err := os.Stat(path)
	if err != nil {
		return "-1:-1"
	}
	return strconv.FormatInt(st.ModTime().Unix(), 10) + ":" + strconv.FormatInt(st.Size(), 10)
}
