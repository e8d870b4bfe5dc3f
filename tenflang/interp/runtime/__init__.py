"""Running a plan: the generated Python step, its buffers, its results."""
