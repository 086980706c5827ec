#!/bin/sh
# rig test plan: fails with status 3 (the run must end as a plan failure)
exit 3
