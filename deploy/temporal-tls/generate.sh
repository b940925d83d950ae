#!/bin/sh
# One-shot job of docker-compose.yml (temporal-tls): the private CA of Temporal's mTLS and the
# certificates it signs, each into the volume of the processes that use it:
#   /ca       ca.key, ca.pem           (this job only: the CA's key never leaves it)
#   /server   ca.pem, server.pem/.key  (Temporal: its frontend and internode certificate, DNS:temporal)
#   /gateway  ca.pem, client.pem/.key  (api and worker: TEMPORAL_TLS_*_FILE)
#   /tools    ca.pem, client.pem/.key  (Temporal UI and admin-tools)
# Idempotent: an existing CA and certificates are kept (delete the volumes to reissue). Keys are
# 0644 because each image runs as its own user: isolation is by volume, not by mode.
set -eu
# TEMPORAL_TLS_ROOT: where the four volumes are mounted (the compose test runs this script in a temporary directory).
root=${TEMPORAL_TLS_ROOT:-}
command -v openssl >/dev/null || apk add --no-cache openssl >/dev/null
days=${TEMPORAL_TLS_DAYS:-825}
server_name=${TEMPORAL_TLS_SERVER_NAME:-temporal}
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT

if [ ! -s "$root/ca/ca.pem" ]; then
  umask 077
  openssl ecparam -name prime256v1 -genkey -noout -out "$root/ca/ca.key"
  printf 'basicConstraints=critical,CA:TRUE\nkeyUsage=critical,keyCertSign,cRLSign\n' > "$work/ca.ext"
  openssl req -new -key "$root/ca/ca.key" -subj "/CN=merchant-gateway temporal CA" -out "$work/ca.csr"
  openssl x509 -req -in "$work/ca.csr" -signkey "$root/ca/ca.key" -days "$days" -extfile "$work/ca.ext" -out "$root/ca/ca.pem"
  umask 022
  echo "temporal-tls: new CA"
fi

# issue <dir> <file> <common name> <extendedKeyUsage> [subjectAltName]
issue() {
  dir=$1 file=$2 cn=$3 eku=$4 san=${5:-}
  cp "$root/ca/ca.pem" "$dir/ca.pem"
  if [ -s "$dir/$file.pem" ] && openssl verify -CAfile "$root/ca/ca.pem" "$dir/$file.pem" >/dev/null 2>&1; then return; fi
  printf 'basicConstraints=CA:FALSE\nkeyUsage=critical,digitalSignature\nextendedKeyUsage=%s\n' "$eku" > "$work/$file.ext"
  [ -n "$san" ] && printf 'subjectAltName=%s\n' "$san" >> "$work/$file.ext"
  openssl ecparam -name prime256v1 -genkey -noout -out "$dir/$file.key"
  openssl req -new -key "$dir/$file.key" -subj "/CN=$cn" -out "$work/$file.csr"
  openssl x509 -req -in "$work/$file.csr" -CA "$root/ca/ca.pem" -CAkey "$root/ca/ca.key" -set_serial "0x$(openssl rand -hex 16)" \
    -days "$days" -extfile "$work/$file.ext" -out "$dir/$file.pem"
  chmod 0644 "$dir/$file.pem" "$dir/$file.key" "$dir/ca.pem"
  echo "temporal-tls: issued $dir/$file.pem ($cn)"
}

# The server's certificate is also its client certificate between Temporal's own services.
issue "$root/server" server "$server_name" serverAuth,clientAuth "DNS:$server_name"
issue "$root/gateway" client gateway clientAuth
issue "$root/tools" client temporal-tools clientAuth
