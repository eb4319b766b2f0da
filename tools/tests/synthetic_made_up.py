"""The made-up workload of the /phases tests: phases no tool knows by name (crunch, chat), so
only the file's /phases can tell the analyses what they are (synthetic_files.py writes the file)."""

import h5py
import numpy as np

from synthetic_files import (COMPUTE, DELAY, LATENCY, MIN_WAIT, POST, WARMUP, generic_durations, write_common,
                             write_open_chain)

# A workload no Python code knows: "crunch" (its work), "chat" (its communication), with the
# shared wait, delay and sync phases. Rank r passes a message to r+1 after chatting (open chain)
# and waits for the one from r-1; rank MADE_UP_DELAY_RANK is delayed in measured iteration
# MADE_UP_DELAY_ITERATION, so the idle period travels up the chain, one rank per iteration. The
# sync phase is a constant short collective (it does not wait for the others).
MADE_UP_EVENTS = ["begin", "crunch_end", "delay_end", "chat_end", "wait_end", "sync_end"]
MADE_UP_DESCRIPTION = [
    ("crunch", "work", "#123456", "crunch (made up)"),
    ("delay", "delay", "#1f5fd6", "injected delay"),
    ("chat", "communication", "#abcdef", "chat (made up)"),
    ("wait", "wait", "#e0201b", "wait (Waitall)"),
    ("sync", "sync", "#f5a623", "sync (barrier/allreduce)"),
    ("iteration", "total", "#ffffff", "iteration"),
]
MADE_UP_DELAY_RANK, MADE_UP_DELAY_ITERATION, MADE_UP_SYNC = 0, 6, 5e-6


def simulate_made_up(n_ranks=6, n_iter=20, warmup=WARMUP):
    names = MADE_UP_EVENTS
    ix = {n: i for i, n in enumerate(names)}
    ev = np.full((n_ranks, n_iter, len(names)), np.nan)
    chat_end = np.zeros((n_ranks, n_iter))
    clock = np.array([3e-6 * r for r in range(n_ranks)])
    for k in range(n_iter):
        for r in range(n_ranks):
            t = clock[r]
            ev[r, k, ix["begin"]] = t
            t += COMPUTE * (1 + 0.01 * r)
            ev[r, k, ix["crunch_end"]] = t
            if (r, k - warmup) == (MADE_UP_DELAY_RANK, MADE_UP_DELAY_ITERATION):
                t += DELAY
                ev[r, k, ix["delay_end"]] = t
            t += POST
            ev[r, k, ix["chat_end"]] = chat_end[r, k] = t
            arrival = chat_end[r - 1, k] + LATENCY if r > 0 else -np.inf
            t = max(t + MIN_WAIT, arrival)
            ev[r, k, ix["wait_end"]] = t
            t += MADE_UP_SYNC
            ev[r, k, ix["sync_end"]] = t
            clock[r] = t
    return ev - ev[0, warmup, 0]


def write_synthetic_made_up(path, described=True, n_ranks=6, n_iter=20, warmup=WARMUP):
    """A file of the made-up workload ("ring"-like, workload name "madeup"), with /phases
    (MADE_UP_DESCRIPTION) or, described=False, without it as an older file would be. Returns the
    events array."""
    ev = simulate_made_up(n_ranks, n_iter, warmup)
    phases, d = generic_durations(ev, MADE_UP_EVENTS)
    with h5py.File(path, "w") as f:
        ds = write_common(f, "madeup", ev, MADE_UP_EVENTS, phases, d, np.full(n_ranks, 1e6), "crunch", warmup,
                          description=MADE_UP_DESCRIPTION if described else None)
        write_open_chain(ds, n_ranks, 4096)
    return ev
