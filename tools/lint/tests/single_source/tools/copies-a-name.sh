#!/usr/bin/env bash
# A fixture for tools/lint/single-source.sh: a script that writes a gated benchmark name itself instead of taking it
# from the manifest. The lint must reject it.
bench --benchmark_filter='^BM_Fixture_Optimized/n:8$'
