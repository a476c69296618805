"""Step-size sweeps run as replicas: a whole tuning grid of one algorithm advances in one array operation."""
