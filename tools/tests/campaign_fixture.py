"""The shared fixture of the desync-campaign tests (test_campaign.py, test_campaign_outputs.py):
a scratch directory with a deck, a fake mpiexec that writes synthetic results, the CLI runner."""
import io
import os
import shutil
import sys
import tempfile
import textwrap
import unittest
from contextlib import redirect_stderr, redirect_stdout


HERE = os.path.dirname(os.path.abspath(__file__))
TOOLS = os.path.dirname(HERE)
sys.path.insert(0, TOOLS)
sys.path.insert(0, HERE)

from desync.campaign import load_campaign  # noqa: E402
from desync.campaign_cli import main  # noqa: E402

DECK = "[run]\nworkload = \"triad\"\niterations = 10\n"

# A stand-in for `mpiexec -n P ... BINARY run DECK --set ... -o OUT [--force]`: records its argv
# (and OMP_NUM_THREADS) in $FAKE_CALLS, writes a synthetic result that records the point's ranks,
# overrides and deck, and exits 3 (verification failed, file written) when an override holds
# $FAKE_FAIL, or 1 without a file when one holds $FAKE_CRASH.
FAKE_MPIEXEC = textwrap.dedent('''\
    import json, os, sys
    sys.path.insert(0, %r)
    from synthetic_files import stamp_run, write_synthetic
    argv = sys.argv[1:]
    with open(os.environ["FAKE_CALLS"], "a") as fh:
        fh.write(json.dumps({"argv": argv, "omp": os.environ.get("OMP_NUM_THREADS"),
                             "bind": os.environ.get("OMP_PROC_BIND")}) + "\\n")
    ranks = int(argv[argv.index("-n") + 1])
    sets = [argv[i + 1] for i, a in enumerate(argv) if a == "--set"]
    out = argv[argv.index("-o") + 1]
    deck = argv[argv.index("run") + 1]
    if any(os.environ.get("FAKE_CRASH", "@") in s for s in sets):
        sys.exit(1)
    if os.path.exists(out) and "--force" not in argv:
        print("exists, no --force"); sys.exit(2)
    write_synthetic(out)
    failed = any(os.environ.get("FAKE_FAIL", "@") in s for s in sets)
    stamp_run(out, overrides=sets, deck_text=open(deck).read(), complete=1, ranks=ranks,
              verification="failed: planted" if failed else "passed")
    sys.exit(3 if failed else 0)
''') % HERE


class CampaignCase(unittest.TestCase):
    def setUp(self):
        self.dir = tempfile.mkdtemp(prefix="campaign_test.")
        self.addCleanup(shutil.rmtree, self.dir)
        with open(os.path.join(self.dir, "deck.toml"), "w") as fh:
            fh.write(DECK)
        self.saved_env = {k: os.environ.get(k) for k in ("DESYNC_MPIEXEC_PREFLAGS", "DESYNC_BIN")}
        for k in self.saved_env:
            os.environ.pop(k, None)
        self.addCleanup(self._restore_env)

    def _restore_env(self):
        for k, v in self.saved_env.items():
            if v is None:
                os.environ.pop(k, None)
            else:
                os.environ[k] = v

    def campaign(self, body, name="c.toml"):
        path = os.path.join(self.dir, name)
        with open(path, "w") as fh:
            fh.write(textwrap.dedent(body))
        return load_campaign(path)

    def cli(self, *args):
        """(exit status, standard output and error) of desync-campaign ARGS."""
        out = io.StringIO()
        try:
            with redirect_stdout(out), redirect_stderr(out):
                code = main(list(args))
        except SystemExit as exc:
            code = exc.code
        return code, out.getvalue()
