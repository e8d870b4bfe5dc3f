"""The Weight Calculation Phase: `loop` (gradient descent over any gradient
function, mini-batches, optimizers), `checkpoints` (saving and resuming)."""
