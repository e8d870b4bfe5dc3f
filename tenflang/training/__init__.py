"""The Weight Calculation Phase: `session` (a run from its files to its
written weights, for tfweightcalc and the Estimator), `loop` (gradient
descent over any gradient function, mini-batches, validation and early
stopping), `config` (a run's settings), `signature` (what a run reads from the GCP, the starting
weights), `optimizers` (the registries of updates and learning-rate
schedules), `health` (warnings about runs that cannot be trusted),
`checkpoints` (saving and resuming), `sampling` (mini-batches drawn chunk
by chunk, for a distributed run)."""
