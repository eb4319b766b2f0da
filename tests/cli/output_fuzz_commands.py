"""The commands of tests/cli/output_fuzz.py on one input file, in-process (the same code as the
installed commands), and what counts as a failure of one call: every `desync-view` subcommand,
tools/check_output_layout.py, `desync-campaign collect` of a one-point campaign whose result is
the input, and calibrate's three readers of its runs' files. output_fuzz.py's docstring lists
the failure rules (problems_of here applies them).
"""
import contextlib
import importlib.util
import io
import json
import os
import shutil
import signal
import sys
import time

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.dirname(os.path.dirname(HERE))
TOOLS = os.path.join(ROOT, "tools")
INPUTS = os.path.join(ROOT, "inputs")
DOC = os.path.join(ROOT, "docs", "output.md")
if TOOLS not in sys.path:
    sys.path.insert(0, TOOLS)

#: stderr lines that are not errors
IGNORED = ("note:", "warning:")


class CallTimeout(BaseException):
    """A command ran past --timeout (a BaseException: the tools' own catch-all must not take it)."""


def _alarm(signum, frame):
    raise CallTimeout()



def commands(mutant, pair, out, camp, panels=False):
    """(name, argv) of every command on one input; out: a path prefix for the outputs; camp: the
    campaign file whose one point's result is the input (prepare_campaign)."""
    png, js = out + ".png", out + ".json"
    return [
        ("summary", ["summary", mutant, "--json", js, "--csv", out + ".csv"]),
        ("timeline", ["timeline", mutant, "-o", png, "--dpi", "30"]),
        ("compare", ["compare", pair, mutant]),
        ("idlewave", ["idlewave", mutant, "--json", js]),
        ("wavefront", ["wavefront", mutant, "--json", js]),
        ("heatmap", ["heatmap", mutant, "-o", png]),
        ("efficiency", ["efficiency", mutant, "--json", js]),
        ("ppam", ["ppam", mutant, "--json", js] + (["-o", png] if panels else [])),
        ("overlap", ["overlap", mutant, "--pure", pair, "--json", js]),
        ("concurrency", ["concurrency", mutant, "-o", png, "--json", js]),
        ("synchrony", ["synchrony", mutant, "-o", png, "--json", js]),
        ("noise", ["noise", mutant, "-o", out + ".noise.txt"]),
        ("saturation", ["saturation", mutant, "-o", png, "--json", js]),
        ("trace", ["trace", mutant, "-o", out + ".trace.json"]),
        ("otf2", ["otf2", mutant, "-o", out + ".otf2"]),
        ("plan-plot", ["plan-plot", mutant, "-o", png, "--json", js]),
        ("check_output_layout", [DOC, mutant]),
        ("campaign-collect", ["collect", camp, "--csv", out + ".csv", "--json", js]),
        ("calibrate-saturation", [mutant]),
        ("calibrate-pingpong", [mutant]),
        ("calibrate-divide", [mutant]),
    ]


#: exit statuses each command may have on any input (the others: 0 or 2)
ALLOWED = {"check_output_layout": (0, 1, 2),  # 1: layout problems, one line each on stdout
           "calibrate-saturation": (0, 1, 2)}  # 1: a sweep without bandwidths (a failed measurement)

CAMPAIGN = """[campaign]
name = "fuzz"
deck = %s
output_dir = %s

[axes]
ranks = [2]
"""


def prepare_campaign(dir_, mutant):
    """A campaign of one point (id ranks2) whose result file is the input; its file."""
    os.makedirs(os.path.join(dir_, "results"))
    os.symlink(os.path.abspath(mutant), os.path.join(dir_, "results", "ranks2.h5"))
    path = os.path.join(dir_, "fuzz.toml")
    with open(path, "w") as fh:
        fh.write(CAMPAIGN % (json.dumps(os.path.join(INPUTS, "quickstart.toml")),
                             json.dumps(os.path.join(dir_, "results"))))
    return path


class Tools:
    """The commands, in-process: desync.cli.main, desync.campaign_cli.main,
    check_output_layout.run and calibrate's readers of its runs' files (calibrate())."""

    def __init__(self):
        import matplotlib
        matplotlib.use("Agg")
        matplotlib.rcParams["savefig.dpi"] = 40  # small pictures: the drawing code runs all the same
        import matplotlib.pyplot as plt
        from desync import calibrate_measure
        from desync.campaign_cli import main as campaign
        from desync.cli import main
        spec = importlib.util.spec_from_file_location("check_output_layout",
                                                      os.path.join(TOOLS, "check_output_layout.py"))
        layout = importlib.util.module_from_spec(spec)
        spec.loader.exec_module(layout)
        self.view, self.campaign, self.layout, self.plt = main, campaign, layout.run, plt
        self.readers = {"calibrate-saturation": calibrate_measure.read_saturation,
                        "calibrate-pingpong": calibrate_measure.read_pingpong,
                        "calibrate-divide": calibrate_measure.read_divide}

    def calibrate(self, name, argv):
        """What desync-calibrate (calibrate_cli.main) does with a run's file: 2 and one line for
        a DesyncError, 1 for a RuntimeError (a failed measurement); anything else escapes."""
        from desync.errors import DesyncError
        try:
            self.readers[name](argv[0])
            return 0
        except DesyncError as exc:
            print("calibrate_platform: error: %s" % " ".join(str(exc).split()), file=sys.stderr)
            return 2
        except RuntimeError as exc:
            print("calibrate_platform: %s" % exc, file=sys.stderr)
            return 1

    def call(self, name, argv, timeout):
        """(exit status or "timeout" or "raised", stdout, stderr, seconds)."""
        out, err = io.StringIO(), io.StringIO()
        t0 = time.monotonic()
        signal.signal(signal.SIGALRM, _alarm)
        signal.setitimer(signal.ITIMER_REAL, timeout)
        try:
            with contextlib.redirect_stdout(out), contextlib.redirect_stderr(err):
                try:
                    if name == "check_output_layout":
                        code = self.layout(argv)
                    elif name == "campaign-collect":
                        code = self.campaign(argv)
                    elif name in self.readers:
                        code = self.calibrate(name, argv)
                    else:
                        code = self.view(argv)
                except SystemExit as exc:
                    code = exc.code if isinstance(exc.code, int) else (0 if exc.code is None else 1)
        except CallTimeout:
            code = "timeout"
        except Exception:  # noqa: BLE001 -- what a user would see as a traceback
            import traceback
            err.write(traceback.format_exc())
            code = "raised"
        finally:
            signal.setitimer(signal.ITIMER_REAL, 0)
            self.plt.close("all")
        return code, out.getvalue(), err.getvalue(), time.monotonic() - t0


def problems_of(name, code, out, err, leftovers, inputs, expect=None):
    """What is wrong with one call's outcome (empty: nothing); expect: the exit status it must have."""
    bad = []
    if code == "timeout":
        bad.append("ran past the timeout")
    elif code == "raised":
        bad.append("raised out of main: " + err.strip().splitlines()[-1] if err.strip() else "raised")
    elif code not in ALLOWED.get(name, (0, 2)):
        bad.append("exit status %s" % code)
    if "Traceback" in out or "Traceback" in err:
        bad.append("printed a traceback")
    lines = [l for l in err.splitlines() if l.strip() and not l.startswith(IGNORED)]
    if code == 2 and len(lines) != 1:
        bad.append("exit 2 with %d error lines on stderr" % len(lines))
    if code == 2 and len(lines) == 1 and not any(p in lines[0] for p in inputs):
        bad.append("the error line names none of the input files")
    if expect is not None and code != expect:
        bad.append("exit status %s, expected %s" % (code, expect))
    if code != 0 and leftovers:
        bad.append("failed but left %s" % ", ".join(sorted(leftovers)))
    return bad


def run_case(tools, label, mutant, pair, scratch, timeout, panels, expect=None, secs_of=None, errors=None):
    """Every command on one input; (failures [text], {command: exit status}, seconds). expect:
    {command: the exit status it must have} (the others: ALLOWED). Outputs go to scratch/out (it
    must be empty after a failed command), the campaign to scratch/campaign."""
    failures, codes, t0 = [], {}, time.monotonic()
    secs_of = {} if secs_of is None else secs_of
    outdir, campdir = os.path.join(scratch, "out"), os.path.join(scratch, "campaign")
    camp = os.path.join(campdir, "fuzz.toml")
    for name, argv in commands(mutant, pair, os.path.join(outdir, "out"), camp, panels):
        shutil.rmtree(scratch, ignore_errors=True)
        os.makedirs(outdir)
        inputs = (mutant, pair)
        if name == "campaign-collect":
            prepare_campaign(campdir, mutant)
            inputs = (camp, os.path.join(campdir, "results", "ranks2.h5"))
        code, out, err, secs = tools.call(name, argv, timeout)
        codes[name] = code
        secs_of[name] = secs_of.get(name, 0.0) + secs
        if code == 2 and errors is not None:
            line = [l for l in err.splitlines() if l.strip() and not l.startswith(IGNORED)][-1:]
            errors.append("%s %s: %s" % (label, name, line[0] if line else "(none)"))
        bad = problems_of(name, code, out, err, os.listdir(outdir), inputs, (expect or {}).get(name))
        if name == "campaign-collect" and code == 0 and "complete" not in out and "unreadable" not in out:
            bad.append("the table shows neither complete, stale nor unreadable for the point")
        if bad:
            shown = " | ".join(l for l in err.strip().splitlines()[-3:])
            failures.append("%s: %s: %s  [stderr: %s]  argv: %s" % (label, name, "; ".join(bad), shown[:600],
                                                                      " ".join(argv)))
    return failures, codes, time.monotonic() - t0
