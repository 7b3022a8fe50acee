"""Pure rules engine for classic UNO, UNO FLIP and UNO Flex! (SPEC G, C, F, X). Standard library only."""
