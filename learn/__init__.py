"""The Learn section: the rules of every set, a glossary, strategy hints and drills."""
