"""Tournaments (比赛): sign-up, check-in, rounds seated by the clock, duplicate deals, standings.

models (the rows), pairing and duplicate (pure: who sits where, how a deal is compared), deals
(the committed round salts), services (every state change), standings, hooks (the few calls
the table code makes into tournaments), views, api and urls. docs/tournaments.md says why.
"""
