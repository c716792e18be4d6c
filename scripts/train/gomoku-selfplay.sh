# Shared by the Gomoku tuning scripts (sourced, not run): the fixed-depth self-play stage.
#
#   gomoku_selfplay TABULA WORK GAMES SEED DEPTH WEIGHTS [PLAYER...]
#
# plays GAMES games per rule, freestyle and renju (one process each, at the same time), at DEPTH
# on one thread with the weights file WEIGHTS for both players, from SEED's random openings, into
# WORK/games-freestyle.txt and WORK/games-renju.txt, and prints how long it took. PLAYER words
# (such as `selectivity=plain`) go to both players.
gomoku_selfplay() {
    local tabula=$1 work=$2 games=$3 seed=$4 depth=$5 weights=$6
    shift 6
    local fixed="depth=$depth movetime=none${*:+ $*}"
    local begin rule player
    local players=()
    begin=$(date +%s)
    for rule in freestyle renju; do
        rm -f "$work/games-$rule.txt"
        "$tabula" selfplay gomoku --rule "$rule" --games "$games" --seed "$seed" --quiet \
            --a "$fixed weights=$weights" --b "$fixed weights=$weights" \
            --out "$work/games-$rule.txt" >"$work/selfplay-$rule.log" &
        players+=($!)
    done
    for player in "${players[@]}"; do
        wait "$player"
    done
    echo "self-play: $(( $(date +%s) - begin )) s"
}
