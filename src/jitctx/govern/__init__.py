"""Governance of instruction files for CI (DESIGN §2.10): claims, provenance and lint (budget to come).

Modules are imported directly (`jitctx.govern.lint`, `jitctx.govern.provenance`, …); nothing is
re-exported here, so importing one gate does not pay for the others.
"""
