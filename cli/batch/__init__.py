"""`whybot batch`: many snapshots decided (here, by forked workers or on a Dask cluster), one
row each, the same bytes however they were decided; resumable output, and `--diff`. The
command's options are `cli/cmd_batch.py`, which calls `run.run_batch`.

    run.py          the batch: inputs decided one by one, or by workers; rows out, summed up
    inputs.py       what counts as an input: snapshot files, folders, JSONL lines
    rows.py         one snapshot's result row
    pool.py         forked workers: rows in input order, a clean stop
    stopping.py     Ctrl-C or SIGTERM, honoured at a row boundary
    results.py      where rows go; an interrupted run kept and resumed
    outfile.py      the `--out` file checked and opened, never harming an input
    summary.py      counts, results and rule coverage
    progress.py     the progress line on a terminal
    cluster.py      `--cluster`: the Dask client, every machine checked before any row
    scheduler.py    reaching a Dask scheduler
    inflight.py     chunks in flight on the cluster, rows back in input order
    remote.py       what a Dask worker runs: shipped snapshots, shipped engines
    diffoverlay.py  `--diff`: the overlay checked once, its files named as the user spelled them
    diffrows.py     `--diff`: one snapshot under both rule sets, as one row
    diffsummary.py  `--diff`: which decisions the overlay changed, by page and by rule
"""
