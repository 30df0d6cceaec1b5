"""The rules pages (/rules/, /rules/<variant>/): views, the page models built from the engine's
catalogue, and the prose read from the text files in text/."""
