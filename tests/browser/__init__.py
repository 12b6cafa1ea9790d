"""Real browser tests (a package, so that its modules may share basenames with tests/web's)."""
