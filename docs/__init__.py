"""The documents, installed as pbem.docs: the public archive shows docs/dice.md."""
