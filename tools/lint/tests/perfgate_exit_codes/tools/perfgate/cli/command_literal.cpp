// A fixture: a command that returns its verdict as bare numbers.
int run_literal(bool failed, bool undecided) {
  if (failed) return 1;
  return undecided ? 3 : 0;
}
