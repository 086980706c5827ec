#!/bin/sh
# rig test plan: never ends (the run must end as a timeout failure)
sleep 100000
