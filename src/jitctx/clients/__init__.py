"""The live clients: one folder each behind the protocol of `base`, listed in `all_clients`."""
