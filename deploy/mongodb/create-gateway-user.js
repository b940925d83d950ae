// Runs once, when MongoDB initialises an empty data directory (docker-entrypoint-initdb.d), as the
// root user: the gateway's own user, read and write on its database only (MONGODB_URI carries it).
db.getSiblingDB('admin').createUser({
  user: 'gateway',
  pwd: process.env.MONGODB_GATEWAY_PASSWORD,
  roles: [{ role: 'readWrite', db: 'gateway' }],
});
