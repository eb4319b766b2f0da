"""Reading and viewing desync HDF5 output files (the contract is docs/output.md).

The command lines are cli.py (installed as `desync-view` by `pip install ./tools`, run in place as
tools/desync_view.py), campaign_cli.py (`desync-campaign`) and calibrate_cli.py
(`desync-calibrate`). cli.py and campaign_cli.py only assemble their subcommands, one module each
in view_commands/ and campaign_commands/ (register(subparsers): its options; run: its printing).
The other modules hold what they run, one concept per module; the analyses return data and never
print (only desync-calibrate's measurements log their progress, calibrate_runner.log):

  cli.py            desync-view: the list of subcommands, exit status
  view_commands/    one module per desync-view subcommand (summary.py, timeline.py, compare.py,
                    idlewave.py, wavefront.py, heatmap.py, efficiency.py, ppam.py, overlap.py,
                    concurrency.py, plan_plot.py, saturation.py, trace.py) and options.py (windows)
  errors.py         DesyncError, the errors a user can fix (printed without a traceback)
  guard.py          how a subcommand fails: one line, exit status 2 (1: an output not writable),
                    no traceback, its outputs removed (tools/README.md, "Bad input files")
  h5file.py         opening and validating a file, decoding strings, reading datasets/attributes
                    with checks of kind and shape; any error while a file is open names the file
  window.py         rank and iteration windows (deck numbering) and their selection
  timeline.py       the /timeline/events of a window (Timeline) and first/latest events
  phases.py         the generic phase rule: phase intervals and per-rank trace tracks
  phase_classes.py  what each phase is: class, colour, label from /phases (FALLBACK for older files)
  idle.py           idle time per rank and iteration (the phases of classes wait and sync)
  formatting.py     numbers, times, byte counts and rank lists for humans
  summary.py        the text summary (`summary`)
  summary_record.py the same run as one JSON record and a per-rank table (`summary --json/--csv`)
  timeline_plot.py  the per-rank timeline picture (`timeline`)
  wavefront_overlay.py  `timeline --wavefronts`: the fitted wavefronts drawn over the timeline
  chrome_trace.py   Chrome Trace Event JSON (`trace`)
  compare.py        a paired run's improvement (`compare`)
  idle_waves.py     idle-wave source, speed, decay, sigma_eff (`idlewave`)
  wavefronts.py     wavefront slope, r, amplitude; concurrency per domain (`wavefront`)
  efficiency.py     POP load balance, communication and parallel efficiency (`efficiency`)
  heatmap.py        rank x iteration idle time minus its mean (`heatmap`)
  ppam.py           PPAM'22 set: z-scored idle times, histograms, correlation, phase space, PCA + k-means (`ppam`)
  overlap.py        OSU and IMB-NBC overlap from the post .. wait sections (`overlap`)
  concurrency_plot.py  ranks in work phases per contention domain over time (`concurrency`)
  plan_plot.py      spy density and rank x rank volume of `desync plan --format json` (`plan-plot`)
  saturation_plot.py   b(N) per kernel with N_s and the model line (`saturation`)
  campaign_cli.py   desync-campaign: the list of subcommands, exit status
  campaign_commands/   one module per desync-campaign subcommand (list_points.py for `list`,
                    check.py, run.py, slurm.py, collect.py, plot.py) and options.py
  campaign*.py      the campaign file (campaign.py), launching and result states (campaign_launch.py),
                    running and checking points (campaign_run.py), the Slurm script
                    (campaign_slurm.py), the table (campaign_collect.py), the pictures (campaign_plot.py)
  calibrate_cli.py  the `desync-calibrate` command (tools/calibrate_platform.py): a platform file for `desync simulate`
  calibrate_runner.py  calibrate: the desync binary, the launcher, running a deck into an .h5 file
  calibrate_measure.py calibrate: the five measurements (layout, memory, network, eager limits, divide)
  calibrate_fit.py  calibrate: lscpu layout, latency/bandwidth fit, eager-limit parsing (pure)
  calibrate_toml.py calibrate: the platform file's TOML text, built and checked (pure)
  messages.py       /messages: matching sends to receives
  collectives.py    /collectives: collective parts in lanes per duplicated communicator
"""
