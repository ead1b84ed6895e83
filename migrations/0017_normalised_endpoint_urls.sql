-- Webhook endpoint URLs are now stored normalised (normalisedUrl in src/http/outbound-url.ts), so the
-- unique index on (account_id, mode, url) holds one endpoint per receiver however its URL was spelled.
-- Rows written before were kept as typed. SQL has no URL parser, so these statements bring them to the
-- normal form only as far as plain text edits can without ever changing which URL a row names: the
-- fragment and an empty query go; a plain host (letters, digits, dots, hyphens, a port) has its scheme
-- and host put in lower case, its default port dropped and the root path added. Other spellings (dot
-- segments, numeric IPv4 hosts, percent-encoding, IPv6 or non-ASCII hosts) stay as they were and are
-- delivered to as before. A row whose new form another row of its account and mode already has keeps
-- its spelling (OR IGNORE): both go on receiving, as they did, until the partner deletes one, and the
-- migration never fails on them.

-- The first "#" always starts the fragment, which never reaches the receiver.
UPDATE OR IGNORE webhook_endpoints SET url = substr(url, 1, instr(url, '#') - 1) WHERE instr(url, '#') > 0;

-- A "?" that is the URL's last character and its first "?" is an empty query.
UPDATE OR IGNORE webhook_endpoints SET url = substr(url, 1, length(url) - 1) WHERE instr(url, '?') = length(url);

-- scheme://authority then the tail (path and query): the authority ends at the first "/" or "?".
UPDATE OR IGNORE webhook_endpoints AS e
   SET url = p.normal
  FROM (
    SELECT id,
           scheme || '://' || host || (CASE WHEN tail = '' OR substr(tail, 1, 1) = '?' THEN '/' ELSE '' END) || tail
             AS normal
      FROM (
        SELECT id, scheme, tail,
               CASE
                 WHEN scheme = 'https' AND authority LIKE '%:443' THEN substr(authority, 1, length(authority) - 4)
                 WHEN scheme = 'http' AND authority LIKE '%:80' THEN substr(authority, 1, length(authority) - 3)
                 WHEN authority LIKE '%:' THEN substr(authority, 1, length(authority) - 1)
                 ELSE authority
               END AS host
          FROM (
            SELECT id, lower(substr(url, 1, instr(url, '://') - 1)) AS scheme,
                   lower(substr(after, 1, stop - 1)) AS authority, substr(after, stop) AS tail
              FROM (
                SELECT id, url, after,
                       CASE
                         WHEN instr(after, '/') = 0 AND instr(after, '?') = 0 THEN length(after) + 1
                         WHEN instr(after, '/') = 0 THEN instr(after, '?')
                         WHEN instr(after, '?') = 0 THEN instr(after, '/')
                         ELSE min(instr(after, '/'), instr(after, '?'))
                       END AS stop
                  FROM (SELECT id, url, substr(url, instr(url, '://') + 3) AS after
                          FROM webhook_endpoints WHERE instr(url, '://') > 0)
              )
          )
         WHERE scheme IN ('http', 'https') AND authority <> '' AND substr(authority, 1, 1) NOT IN (':', '.')
           AND authority NOT GLOB '*[^a-z0-9.:-]*'
      )
  ) AS p
 WHERE e.id = p.id AND e.url <> p.normal;
