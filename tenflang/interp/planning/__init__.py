"""What a run computes: plans, fused groups, sweeps."""
