"""Shapes several live clients share: settings files, hook commands, checks, transcript readers."""
