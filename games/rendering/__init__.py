"""HTML for the live board and the lobby, built from the render context of docs/protocol.md §1.

`render_table_html(context)` returns the table page's live parts, each a top-level element
with an id and `hx-swap-oob`, so the htmx ws extension swaps every part in place. The same
parts make up the first page load (templates/games/table.html includes them), so a reload
shows exactly what the socket shows. Nothing here reads state the context does not hold:
the context is already this viewer's view (no other seat's concealed tiles).

Modules: `labels` (tiles, variant and pattern names), `actions` (the board's buttons), `board`
(`board_model`), `settlement` (the settlement panel), `fragments` (`render_table_html`,
`render_error_html`, `render_lobby_html`, `language_from_scope`).
"""
