"""The mail templates every game shares (installed as pbem.templates)."""
