"""The generic, pure core: the game contract, the engine, fair dice, grid helpers."""
