"""A live table: every change to one, by concern, around one persistence seam.

store       the only module that knows rows, SQL, snapshots and the announcement
hand_log    the store's cache of hand states (replayed from the log, or extended)
loaded      `Loaded`: a table as read, and what follows from its rows (no database work)
changes     `with change(table_id, now, expect=...) as t:` — the store plus the version check
            and the clock's deadline every change shares
timing      the pause, the claim window's secrecy, timers and deadlines (reads only)
opening     create_table
seating     sit, stand, bots; freeing a seat
stake       the base stake and the points floor
play        start, act, undo, 托管, continue, leave (an escape mid-hand)
settlement  the end of a hand
presence    sockets: connect, disconnect, a dead process's sockets
timers      the clock's `timeout`
commands    the registry of table commands, `perform` and `legal_for`
"""
