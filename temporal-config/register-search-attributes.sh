#!/bin/sh
# Creates the namespace when missing (with namespace.yaml's retention, beside search-attributes.yaml),
# sets that retention on a namespace that exists, and registers every custom search attribute listed
# in search-attributes.yaml on the Temporal server. Run by the one-shot temporal-admin-tools job of
# docker-compose.yml (temporalio/admin-tools image) and by `npm run stack:production`; plain POSIX
# sh and awk, no YAML tool needed. Idempotent: creating an attribute that already exists with the
# same type, or setting the retention the namespace has, changes nothing.
#
#   usage: register-search-attributes.sh [path/to/search-attributes.yaml]
#   env:   TEMPORAL_ADDRESS    frontend host:port (read by the temporal CLI itself)
#          TEMPORAL_NAMESPACE  namespace to register in, created when missing (default: default)
#          WAIT_ATTEMPTS       how many times to poll the server, 2 seconds apart (default: 90)
set -eu

file=${1:-$(dirname "$0")/search-attributes.yaml}
namespace=${TEMPORAL_NAMESPACE:-default}
attempts=${WAIT_ATTEMPTS:-90}

# "Name Type" for each "  Name: Type" line of the top-level searchAttributes mapping.
pairs=$(awk '
  /^[^ \t#]/ { inside = ($0 ~ /^searchAttributes:[ \t]*(#.*)?$/); next }
  inside && /^[ \t]+[A-Za-z_][A-Za-z0-9_]*:[ \t]*[A-Za-z]+[ \t]*(#.*)?$/ {
    sub(/#.*/, ""); gsub(/:/, " "); print $1, $2
  }
' "$file")
if [ -z "$pairs" ]; then
  echo "register-search-attributes: no entries under searchAttributes: in $file" >&2
  exit 1
fi
namespace_file=$(dirname "$file")/namespace.yaml
retention=$(awk '/^retention:/ { sub(/#.*/, ""); print $2 }' "$namespace_file")
if [ -z "$retention" ]; then
  echo "register-search-attributes: no retention: in $namespace_file" >&2
  exit 1
fi

# wait_for <what> <command...>: polls until the command succeeds or attempts run out.
wait_for() {
  what=$1
  shift
  n=1
  until "$@" >/dev/null 2>&1; do
    if [ "$n" -ge "$attempts" ]; then
      echo "register-search-attributes: gave up waiting for $what" >&2
      exit 1
    fi
    echo "waiting for $what ..."
    n=$((n + 1))
    sleep 2
  done
}

# The CLI fails unless the frontend reports SERVING; the output is checked too (NOT_SERVING contains SERVING).
serving() {
  health=$(temporal operator cluster health) || return 1
  case $health in
    *NOT_SERVING*) return 1 ;;
    *SERVING*) return 0 ;;
    *) return 1 ;;
  esac
}
wait_for "Temporal at ${TEMPORAL_ADDRESS:-the default address}" serving
# The namespace, created when missing (the Temporal server creates none by itself).
if ! temporal operator namespace describe --namespace "$namespace" >/dev/null 2>&1; then
  echo "namespace $namespace: creating (retention $retention)"
  temporal operator namespace create --namespace "$namespace" --retention "$retention"
fi
wait_for "namespace $namespace" temporal operator namespace describe --namespace "$namespace"

echo "retention $retention for namespace $namespace"
# Retried: a namespace just created is "not found" here until the server's namespace cache refreshes.
wait_for "the retention of namespace $namespace to be set" \
  temporal operator namespace update --namespace "$namespace" --retention "$retention"

while read -r name type; do
  echo "search attribute $name ($type) in namespace $namespace"
  # Retried, for the same reason.
  wait_for "search attribute $name to be created" \
    temporal operator search-attribute create --namespace "$namespace" --name "$name" --type "$type"
done <<EOF
$pairs
EOF

# Visible once the namespace cache has caught up; fail rather than let workflows start without them.
listed() { temporal operator search-attribute list --namespace "$namespace" | grep -qw "$1"; }
while read -r name type; do
  wait_for "search attribute $name to be listed" listed "$name"
done <<EOF
$pairs
EOF
echo "search attributes registered"
