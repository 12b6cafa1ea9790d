"""The chouette club manager: pure rules (engine, table, ledger) and the web app around them."""
