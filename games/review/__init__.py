"""复盘 Review on the site: the engine's review of a finished hand (games.engine.review), kept per
hand, seat and reviewer version, computed off the request path; its page, API and statistics."""
