package cmd

import (
	"os"
	"path/filepath"
	"testing"

	"github.com/rogpeppe/go-internal/testscript"
)

func TestMain(m *testing.M) {
	testscript.Main(m, map[string]func(){
		"agentstream": func() { os.Exit(Main()) },
	})
}

// TestScript runs the CLI scripts in testdata/script. $TESTDATA is the
// repository's testdata directory, for the shipped sample streams.
func TestScript(t *testing.T) {
	t.Parallel()
	td, err := filepath.Abs("../testdata")
	if err != nil {
		t.Fatal(err)
	}
	testscript.Run(t, testscript.Params{
		Dir: "../testdata/script",
		Setup: func(env *testscript.Env) error {
			env.Setenv("TESTDATA", td)
			env.Setenv("NO_COLOR", "")
			return nil
		},
		UpdateScripts: os.Getenv("UPDATE_SCRIPTS") != "",
		Cmds:          scriptCmds,
	})
}
