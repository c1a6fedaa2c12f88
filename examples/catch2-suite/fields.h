// The code the example measures: splitting a CSV line into its fields (quotes not handled: a small stand-in for a
// project's own parser).
#pragma once
#include <string>
#include <string_view>
#include <vector>

std::vector<std::string> split_fields(std::string_view line, char separator = ',');

/// A deterministic CSV text of `rows` lines of eight fields each, the measured input.
std::string sample_csv(int rows);
