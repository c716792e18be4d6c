#!/usr/bin/env bash
# A single-node Slurm cluster on this machine, started for one run of the Slurm recipe of
# docs/analyze.md: the array job of `tabula analyze --shard`, the merge, and a comparison with a
# single run of the same analysis. Every daemon it starts (munged, slurmctld, slurmd) is stopped at
# the end, also when it fails; everything they write is in a scratch folder, removed at the end
# (kept with KEEP=1).
#
#   scripts/cluster/slurm-local.sh TABULA POSITIONS [SHARDS]
#
# TABULA is the tabula binary, POSITIONS a Reversi .obf file (solved exactly, one thread per task),
# SHARDS the array size (default 4). Needs root (to run slurmd) and Debian's slurm-wlm and munge
# (`apt-get install slurm-wlm munge`). The daemons listen on 127.0.0.1 only, on two free ports
# (SLURMCTLD_PORT and SLURMD_PORT choose them), and use a munge key and socket of their own: a
# munged or Slurm already running on the machine is left alone.
set -euo pipefail

if [ $# -lt 2 ] || [ $# -gt 3 ]; then
    echo "usage: $0 TABULA POSITIONS [SHARDS]" >&2
    exit 2
fi
tabula=$(realpath "$1")
positions=$(realpath "$2")
shards=${3:-4}
[ -x "$tabula" ] || { echo "$0: $1 is not an executable" >&2; exit 2; }
[ -f "$positions" ] || { echo "$0: $2 is not a file" >&2; exit 2; }
if [ "$(id -u)" -ne 0 ]; then
    echo "$0: needs root (slurmd starts the jobs); run it with sudo" >&2
    exit 2
fi
for program in munged mungekey slurmctld slurmd sbatch squeue sinfo scontrol python3; do
    if ! command -v "$program" >/dev/null 2>&1; then
        echo "$0: $program is missing: apt-get install slurm-wlm munge python3" >&2
        exit 2
    fi
done

start=${EPOCHREALTIME/./}
elapsed() {
    local tenths=$(((${EPOCHREALTIME/./} - start) / 100000))
    printf '%3d.%d s' $((tenths / 10)) $((tenths % 10))
}
say() { echo "[$(elapsed)] $*"; }

work=$(mktemp -d /tmp/tabula-slurm.XXXXXX)
chmod 755 "$work"
mkdir -m 755 "$work/munge"
mkdir -m 755 "$work/state" "$work/spool" "$work/run"
export SLURM_CONF=$work/slurm.conf

cleanup() {
    status=$?
    { set +x; } 2>/dev/null
    set +e
    if [ -f "$work/slurmctld.pid" ] && [ -z "${finished:-}" ]; then
        # Jobs still there (after a failure) are cancelled before their slurmd goes: this
        # cluster's only partition holds only this script's job.
        scancel --quiet --full --partition=local 2>/dev/null
        sleep 1
    fi
    # SIGTERM to all three at once (each takes a second or two to go), SIGKILL after 10 s.
    pids=()
    for pidfile in slurmd.pid slurmctld.pid munge/munged.pid; do
        [ -f "$work/$pidfile" ] && pids+=("$(cat "$work/$pidfile")")
    done
    for pid in "${pids[@]}"; do kill "$pid" 2>/dev/null; done
    for pid in "${pids[@]}"; do
        for _ in $(seq 100); do kill -0 "$pid" 2>/dev/null || break; sleep 0.1; done
        kill -9 "$pid" 2>/dev/null
    done
    if [ "$status" -ne 0 ]; then
        for log in slurmctld.log slurmd.log munge/munged.log; do
            [ -f "$work/$log" ] && { echo "--- last lines of $log:"; tail -n 20 "$work/$log"; }
        done
    fi
    if [ "${KEEP:-0}" = 1 ]; then
        echo "kept $work"
    else
        rm -rf "$work"
    fi
    say "daemons stopped"
    exit "$status"
}
trap cleanup EXIT
trap 'exit 130' INT TERM

free_port() {
    local port
    for _ in $(seq 100); do
        port=$((20000 + RANDOM % 20000))
        if ! (exec 3<>"/dev/tcp/127.0.0.1/$port") 2>/dev/null; then
            echo "$port"
            return
        fi
    done
    echo "$0: no free port" >&2
    return 1
}
ctld_port=${SLURMCTLD_PORT:-$(free_port)}
slurmd_port=${SLURMD_PORT:-$(free_port)}
host=$(hostname -s)
# This machine's CPUs, sockets, cores, threads and memory, as slurmd sees them.
node=$(slurmd -C | head -n 1 | sed "s/^NodeName=[^ ]*//")

cat >"$SLURM_CONF" <<EOF
ClusterName=tabula-local
SlurmctldHost=$host(127.0.0.1)
SlurmctldPort=$ctld_port
SlurmdPort=$slurmd_port
SlurmUser=root
SlurmdUser=root
AuthType=auth/munge
CredType=cred/munge
AuthInfo=socket=$work/munge/munge.socket
StateSaveLocation=$work/state
SlurmdSpoolDir=$work/spool
SlurmctldPidFile=$work/slurmctld.pid
SlurmdPidFile=$work/slurmd.pid
SlurmctldLogFile=$work/slurmctld.log
SlurmdLogFile=$work/slurmd.log
ProctrackType=proctrack/linuxproc
TaskPlugin=task/none
JobAcctGatherType=jobacct_gather/none
AccountingStorageType=accounting_storage/none
JobCompType=jobcomp/none
MpiDefault=none
SchedulerType=sched/backfill
SelectType=select/cons_tres
SelectTypeParameters=CR_Core
ReturnToService=2
MinJobAge=300
KillWait=5
MailProg=/bin/true
NodeName=$host NodeAddr=127.0.0.1 $node State=UNKNOWN
PartitionName=local Nodes=$host Default=YES MaxTime=INFINITE State=UP
EOF
say "slurm.conf for $host:$node (slurmctld on port $ctld_port, slurmd on $slurmd_port)"

mungekey --create --keyfile="$work/munge/munge.key" --bits=1024
munged --force --socket="$work/munge/munge.socket" --key-file="$work/munge/munge.key" \
    --pid-file="$work/munge/munged.pid" --log-file="$work/munge/munged.log" \
    --seed-file="$work/munge/munged.seed"
slurmctld
slurmd -N "$host"
say "munged, slurmctld and slurmd started"

# The node comes up idle within seconds.
for _ in $(seq 120); do
    state=$(sinfo --noheader --nodes="$host" --format=%t 2>/dev/null || true)
    [ "$state" = idle ] && break
    sleep 0.5
done
if [ "$state" != idle ]; then
    echo "$0: the node did not come up (state '$state')" >&2
    exit 1
fi
say "node $host is idle: $(sinfo --noheader --format='%P %D %c CPUs %m MB')"

cd "$work/run"
cp "$positions" positions.obf
mkdir bin
ln -s "$tabula" bin/tabula
export PATH=$work/run/bin:$PATH

# The recipe of docs/analyze.md, with SHARDS tasks (sbatch passes PATH on to the tasks).
set -x
sbatch --array=1-"$shards" --cpus-per-task=1 --parsable --wait --wrap \
    "tabula analyze --exact --jobs 1 --threads 1 --hash 16 --quiet --shard \$SLURM_ARRAY_TASK_ID/$shards --output out-\$SLURM_ARRAY_TASK_ID.jsonl --resume positions.obf" \
    >job.txt || sbatch_status=$?
{ set +x; } 2>/dev/null
job=$(cat job.txt)
if [ "${sbatch_status:-0}" -eq 0 ]; then
    finished=1
fi
say "array job $job ended (sbatch --wait status ${sbatch_status:-0})"
for task in $(seq 1 "$shards"); do
    scontrol --oneliner show job "${job}_$task" |
        grep -oE "^JobId=[0-9]+|ArrayJobId=[0-9]+|ArrayTaskId=[0-9]+|JobState=[A-Z]+|RunTime=[0-9:-]+|ExitCode=[0-9:]+|BatchHost=[^ ]+" |
        paste -sd' '
done
for task in $(seq 1 "$shards"); do
    echo "--- slurm-${job}_$task.out:"
    cat "slurm-${job}_$task.out"
done
if [ "${sbatch_status:-0}" -ne 0 ]; then
    echo "$0: the array job failed: see the tasks' states and outputs above" >&2
    exit 1
fi
set -x
tabula analyze merge all.jsonl out-*.jsonl
{ set +x; } 2>/dev/null
say "merged"

set -x
tabula analyze --exact --jobs 1 --threads 1 --hash 16 --quiet --output single.jsonl positions.obf
{ set +x; } 2>/dev/null
say "single run done"

# Exact scores, depths and answers are the same whatever each process analysed before; the best
# move too, up to moves the file lists as equally best (see tests/tools/shards.rs).
python3 - all.jsonl single.jsonl <<'EOF'
import json, sys
merged = [json.loads(line) for line in open(sys.argv[1])]
single = [json.loads(line) for line in open(sys.argv[2])]
assert len(merged) == len(single), (len(merged), len(single))
fields = ["index", "total", "source", "line", "position", "to_move", "score", "depth", "expected", "agree"]
for index, (a, b) in enumerate(zip(merged, single)):
    assert a["index"] == index, a
    for field in fields:
        assert a.get(field) == b.get(field), f"position {index}: {field}: {a.get(field)} != {b.get(field)}"
    tied = len(a.get("expected", {}).get("moves", [])) > 1
    assert a["best"] == b["best"] or tied, f"position {index}: best {a['best']} != {b['best']}"
agree = sum(1 for a in merged if a.get("agree"))
print(f"merged = single run on {len(merged)} positions (best, exact score, depth, answers); {agree} agree with the file")
EOF
say "done"
