// A fixture: formatted as the style says.
int sum(int a, int b) { return a + b; }
