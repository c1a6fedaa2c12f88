// A fixture: the mechanism itself may write.
void write_file_atomically(const char*, const char*) { std::rename("a", "b"); }
