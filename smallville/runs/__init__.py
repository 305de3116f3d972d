"""Run folders: what a run leaves behind and everything that reads, checks, copies or compares it.

The layout (folder), the store that writes and reads it, the checks on open (integrity), the writer's lock, the
checkpoints kept for forks, a fork's folder, two runs compared, the diagnosis of a file that failed, a clean stop.
"""
