"""What the tests share: the people and their tables, games played out, sockets, pages and
workers. Plain modules, imported by the tests; no test module imports another."""
