#!/bin/sh
# Quarry's demo (`make demo`): where-clauses over Samples/sample.json and what they return.
# Usage: sh Samples/demo.sh [path/to/quarry]
QUARRY=${1:-.build/release/quarry}
DATA=Samples/sample.json
cd "$(dirname "$0")/.." || exit 1
[ -x "$QUARRY" ] || { echo "demo: no quarry binary at $QUARRY (run: make release)" >&2; exit 1; }

# Shows a command as one would type it, then runs it; a failing command is part of the show.
show() {
    printf '\n$ quarry'
    for arg in "$@"; do
        case $arg in
            *"'"*) printf ' "%s"' "$arg" ;;
            *[!A-Za-z0-9_.,/=-]*) printf " '%s'" "$arg" ;;
            *) printf ' %s' "$arg" ;;
        esac
    done
    printf '\n'
    "$QUARRY" "$@" 2>&1
    status=$?
    [ $status -eq 0 ] || printf '(exit status %s)\n' "$status"
}

section() { printf '\n== %s\n' "$1"; }

echo "Quarry demo: $DATA holds Contact, Address, PhoneBook, Friend and Order objects."

section "Plain comparisons, as a table"
show run --data $DATA --class Contact --keys name,age --order "-age" --format table "age > 20 AND age <= 35"

section "LIKE is case-insensitive; results as NDJSON (Parse REST JSON)"
show run --data $DATA --class Contact --keys name,title "name LIKE 'k%' OR title LIKE '%chief%'"

section "Dates in a Backendless format"
show run --data $DATA --class Order --ids "updated after '23-Mar-2015'"

section "distance() from Austin, TX: friends within 200 miles"
show run --data $DATA --class Friend --ids \
    "distance(30.26715, -97.74306, coordinates.latitude, coordinates.longitude) < mi(200)"

section "A dot path through a pointer, and through a one-to-many relation"
show run --data $DATA --class Contact --ids "address.city = 'Dallas'"
show run --data $DATA --class PhoneBook --ids "contacts.age > 30"

section "An inverted relation: contacts listed in the 'Ranch' phone book"
show run --data $DATA --class Contact --ids "PhoneBook[contacts].name = 'Ranch'"

section "A subquery: orders of customers over 30"
show run --data $DATA --class Order --ids "customer.objectId IN (Contact[age > 30].objectId)"

section "Counting"
show run --data $DATA --class Contact --count "tags IS NOT NULL"

section "Translating, with the data saying which fields hold single values"
show translate --to predicate --data $DATA --class Contact "name LIKE 'c%' AND title != 'Editor'"
show translate --to json --data $DATA --class Contact "name LIKE 'c%' AND title != 'Editor'"
show translate --from predicate --to sql --data $DATA --class Contact 'age >= 21 AND NOT (name BEGINSWITH[c] "k")'

section "Without the data a field may hold anything, and the translation says so exactly"
show translate --to predicate "age >= 21"

section "A persistent store: import into SQLite once, then query the file"
STORE=${TMPDIR:-/tmp}/quarry-demo-$$.sqlite
rm -f "$STORE" "$STORE-wal" "$STORE-shm"
show import --data $DATA --store sqlite:$STORE --index Contact.age
show run --store sqlite:$STORE --class Contact --keys name,age --order "-age" --format table "age > 20 AND age <= 35"
show explain --store sqlite:$STORE --class Contact --dialect predicate "age > 20 AND age <= 35 AND name MATCHES '[A-K].*'"
rm -f "$STORE" "$STORE-wal" "$STORE-shm"

section "A mistake, reported like a compiler would"
show check "age > AND name = 'Lois'"

exit 0
