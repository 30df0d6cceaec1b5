"""Helpers both apps use and neither owns (accounts and games import these; these import neither):
precompiled row SQL, group messages sent without waiting, the site settings an admin may change."""
