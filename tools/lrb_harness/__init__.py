"""Build and test harness of the lockless ring buffer project.

One module per job:
  paths      where things live (repository, cache, tree, build dirs, results)
  gitutil    running git on the kernel tree with a clean, fixed environment
  tree       the kernel tree step: base commit, series, export
  srcdirs    kunit/ and bench/: where the series carries them in the tree
  dirsync    copying kunit/ and bench/ over the tree with a manifest
  testpatch  the patches written from kunit/ and bench/, and their check
  profiles   targets (x86_64, arm64-lse, arm64-llsc) and profile fragments
  suites     `list`: suites and cases read from the kunit/ sources
  ktap       KTAP parsing and leaf counting (same counting as kunit.py)
  logscan    crash/warning/sanitizer/QEMU-error detection in kernel logs
  kunitrun   invoking the tree's kunit.py with a watchdog
  report     tables and the closing counts line
  checks     checkpatch, kernel-doc, mypy, the copies' check and the W=1 build
  sparse     sparse on the series' objects and the test directories
  cli        argument parsing and subcommands
"""
