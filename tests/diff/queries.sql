# Differential queries: each runs in hivelite and in DuckDB over the same
# files (see README.md for the format).  Tables (gen_data.mjs):
#   t_all(id, flag, tiny, small, num, big, dbl, amt DECIMAL(12,2),
#         prec DECIMAL(18,6), name, cat, day DATE, ts TIMESTAMP)   12000 rows
#   dim(k, label, weight, grp, price DECIMAL(8,3))  144 rows, duplicate and NULL k
#   small(sid, sname, sflag)                         40 rows
#   empty_t(k, label, weight)                        0 rows
#   part(id, uid, amount, score, tag, ok) PARTITIONED BY (dt DATE, hr INT)
#   csv_t(id, txt, val) OpenCSVSerde;  json_t(id, name, score, qty, active) JsonSerDe
# Rules: ORDER BY always says NULLS FIRST/LAST and is a total order when the
# query has LIMIT or its result is compared in sequence; no arithmetic that
# overflows its type; TINYINT/SMALLINT are cast before arithmetic (Hive
# widens to INT, DuckDB keeps the narrow type and raises on overflow).

-- section: scan
SELECT * FROM t_all;

SELECT * FROM dim;

SELECT * FROM small;

SELECT * FROM empty_t;

SELECT * FROM part;

SELECT id, name FROM t_all;

SELECT cat, day, ts FROM t_all;

SELECT amt, prec FROM t_all;

SELECT id, id, id + 1 AS next_id FROM t_all;

SELECT t.id, t.flag FROM t_all t;

SELECT t_all.tiny, t_all.small FROM t_all;

SELECT label, k FROM dim;

SELECT 1 AS one, 'x' AS s, 2.50 AS d, TRUE AS b;

SELECT count(*) FROM t_all;

SELECT count(*) FROM part;

SELECT * FROM csv_t;

SELECT * FROM json_t;

SELECT id, big, dbl FROM t_all WHERE id <= 3000;

-- section: filter
SELECT id FROM t_all WHERE num > 0;

SELECT id FROM t_all WHERE num >= 0 AND num < 1000;

SELECT id FROM t_all WHERE num = 0;

SELECT id FROM t_all WHERE num <> 0;

SELECT id FROM t_all WHERE num != 5;

SELECT id FROM t_all WHERE num == 5;

SELECT id FROM t_all WHERE tiny < -100;

SELECT id, tiny FROM t_all WHERE tiny = 127 OR tiny = -128;

SELECT id FROM t_all WHERE small = 7;

SELECT count(*) FROM t_all WHERE small <> 7;

SELECT id FROM t_all WHERE big > 8000000000000;

SELECT id FROM t_all WHERE big < -1000000000000 AND num > 0;

SELECT id FROM t_all WHERE dbl > 500.5;

SELECT id FROM t_all WHERE dbl BETWEEN -10 AND 10;

SELECT id FROM t_all WHERE dbl NOT BETWEEN -1000 AND 1000;

SELECT id FROM t_all WHERE amt > 50000;

SELECT id FROM t_all WHERE amt BETWEEN -100.50 AND 100.50;

SELECT id FROM t_all WHERE prec < -100000;

SELECT id FROM t_all WHERE prec = 0;

SELECT id FROM t_all WHERE flag;

SELECT id FROM t_all WHERE NOT flag;

SELECT id FROM t_all WHERE flag = true AND cat = 'c';

SELECT id FROM t_all WHERE flag = false;

SELECT id FROM t_all WHERE cat = 'j';

SELECT id FROM t_all WHERE cat > 'h';

SELECT id FROM t_all WHERE cat IN ('c', 'd', 'e');

SELECT id FROM t_all WHERE cat NOT IN ('a', 'b', 'c', 'd');

SELECT id FROM t_all WHERE cat = '';

SELECT id FROM t_all WHERE name = '';

SELECT id, name FROM t_all WHERE name < 'B';

SELECT id FROM t_all WHERE name >= 'x' AND name < 'y';

SELECT id FROM t_all WHERE name = 'café';

SELECT id FROM t_all WHERE name > 'zz';

SELECT id FROM t_all WHERE num IN (1, 2, 3, -1, -2);

SELECT id FROM t_all WHERE num NOT IN (0, 1, 2) AND num BETWEEN -5 AND 5;

SELECT id FROM t_all WHERE num BETWEEN 10 AND -10;

SELECT id FROM t_all WHERE id BETWEEN 100 AND 110 OR id BETWEEN 11990 AND 12005;

SELECT id FROM t_all WHERE (num > 0 OR dbl > 0) AND NOT (cat = 'a');

SELECT id FROM t_all WHERE num > 0 AND dbl > 0 AND amt > 0 AND prec > 0;

SELECT id FROM t_all WHERE num > 0 OR dbl > 0 OR amt > 0;

SELECT id FROM t_all WHERE day = '2024-02-29';

SELECT id FROM t_all WHERE day = DATE '2000-02-29';

SELECT id FROM t_all WHERE day < DATE '1970-01-02';

SELECT id FROM t_all WHERE day BETWEEN '2021-03-01' AND '2021-03-31';

SELECT id FROM t_all WHERE ts >= TIMESTAMP '2025-12-01 00:00:00';

SELECT id FROM t_all WHERE ts < '2020-01-15';

SELECT id FROM t_all WHERE ts BETWEEN '2022-06-01 12:00:00' AND '2022-06-30 12:00:00.5';

SELECT id FROM t_all WHERE day IN (DATE '2020-01-01', DATE '2023-05-05', DATE '1999-12-31');

SELECT id FROM t_all WHERE big IN (9000000000000, -9000000000000);

SELECT id FROM t_all WHERE amt IN (0.00, 1.00, -1.00);

SELECT id FROM t_all WHERE small + 1 > 150;
-- duckdb: SELECT id FROM t_all WHERE CAST(small AS INTEGER) + 1 > 150

SELECT id FROM t_all WHERE num % 1000 = 7;

SELECT id FROM t_all WHERE id % 97 = 0 AND flag IS NOT NULL;

SELECT k, label FROM dim WHERE weight > 900;

SELECT k FROM dim WHERE grp = 'red' AND price > 0;

-- section: nulls
SELECT count(*) FROM t_all WHERE num IS NULL;

SELECT count(*) FROM t_all WHERE num IS NOT NULL;

SELECT count(*) FROM t_all WHERE flag IS NULL;

SELECT count(*) FROM t_all WHERE name IS NULL;

SELECT count(*) FROM t_all WHERE name IS NOT NULL AND name <> '';

SELECT count(*) FROM t_all WHERE day IS NULL OR ts IS NULL;

SELECT count(*) FROM t_all WHERE amt IS NULL AND prec IS NULL;

SELECT id FROM t_all WHERE num = NULL;

SELECT id FROM t_all WHERE NOT (num = NULL);

SELECT id FROM t_all WHERE num <> NULL;

SELECT count(*) FROM t_all WHERE NOT (num > 0);

SELECT count(*) FROM t_all WHERE NOT (num > 0 AND dbl > 0);

SELECT count(*) FROM t_all WHERE NOT (num > 0 OR dbl > 0);

SELECT count(*) FROM t_all WHERE (num > 0) IS NULL;
-- duckdb: SELECT count(*) FROM t_all WHERE (num > 0) IS NULL

SELECT id, flag AND num > 0 AS a, flag OR num > 0 AS o FROM t_all WHERE id <= 400;

SELECT id, NOT flag AS n FROM t_all WHERE id <= 400;

SELECT flag, num > 0 AS p, count(*) FROM t_all GROUP BY flag, num > 0;

SELECT NULL AND false, NULL AND true, NULL OR true, NULL OR false, NOT NULL;
-- duckdb: SELECT NULL::BOOLEAN AND false, NULL::BOOLEAN AND true, NULL::BOOLEAN OR true, NULL::BOOLEAN OR false, NOT NULL::BOOLEAN

SELECT id FROM t_all WHERE num <=> NULL AND id < 500;

SELECT count(*) FROM t_all WHERE num IS DISTINCT FROM tiny;

SELECT count(*) FROM t_all WHERE small IS NOT DISTINCT FROM 7;

SELECT count(*) FROM t_all a JOIN t_all b ON a.id = b.id WHERE a.name <=> b.name;

SELECT count(*) FROM t_all WHERE num IN (1, 2, NULL);

SELECT count(*) FROM t_all WHERE num NOT IN (1, 2, NULL);

SELECT count(*) FROM t_all WHERE NOT (num IN (1, 2, NULL));

SELECT id, num IN (1, 2, NULL) AS x FROM t_all WHERE id <= 300;

SELECT id, num NOT IN (0, 5) AS x FROM t_all WHERE id <= 300;

SELECT count(*) FROM t_all WHERE cat NOT IN ('a', NULL);

SELECT id, num BETWEEN 0 AND NULL AS x FROM t_all WHERE id <= 200;
-- duckdb: SELECT id, num BETWEEN 0 AND CAST(NULL AS INTEGER) AS x FROM t_all WHERE id <= 200

SELECT count(*) FROM t_all WHERE name LIKE NULL;
-- duckdb: SELECT count(*) FROM t_all WHERE name LIKE CAST(NULL AS VARCHAR)

SELECT count(num), count(flag), count(name), count(day), count(ts), count(amt), count(prec), count(cat) FROM t_all;

SELECT count(*) FROM t_all WHERE coalesce(num, 0) = 0;

SELECT id, coalesce(num, big, 0) FROM t_all WHERE id <= 1000;

SELECT id, coalesce(name, cat, 'none') FROM t_all WHERE id <= 1000;

SELECT id, nvl(dbl, -1.5) FROM t_all WHERE id <= 1000;

SELECT id, nullif(cat, 'a') FROM t_all WHERE id <= 1000;

SELECT id, nullif(num, 0) FROM t_all WHERE id <= 1000;

SELECT count(nullif(cat, '')) FROM t_all;

SELECT k, coalesce(label, grp) FROM dim;

SELECT id, num + NULL, dbl * NULL FROM t_all WHERE id <= 100;
-- duckdb: SELECT id, num + CAST(NULL AS DOUBLE), dbl * CAST(NULL AS DOUBLE) FROM t_all WHERE id <= 100

SELECT id, coalesce(day, CAST(ts AS DATE)) FROM t_all WHERE id <= 500;

-- section: arith
SELECT id, num + 1, num - 1, num * 2 FROM t_all WHERE id <= 2000;

SELECT id, CAST(num AS BIGINT) * num FROM t_all WHERE id <= 2000;

SELECT id, num * 1000 FROM t_all WHERE num BETWEEN -2000000 AND 2000000 AND id <= 3000;

SELECT id, big + num, big - num FROM t_all WHERE id <= 2000;

SELECT id, big * 2, big * -1 FROM t_all WHERE id <= 2000;

SELECT id, -num, -big, -dbl, -amt FROM t_all WHERE id <= 2000;

SELECT id, num / 3, num / 7.0 FROM t_all WHERE id <= 2000;
-- abs_tol: 1e-6

SELECT id, num / 0, dbl / 0 FROM t_all WHERE id <= 100;
-- duckdb: SELECT id, CAST(NULL AS DOUBLE), CAST(NULL AS DOUBLE) FROM t_all WHERE id <= 100

SELECT id, num % 7, num % -7 FROM t_all WHERE id <= 2000;

SELECT id, num % 0 FROM t_all WHERE id <= 100;

SELECT id, num DIV 7, num DIV -3 FROM t_all WHERE id <= 2000;

SELECT id, big DIV 1000003 FROM t_all WHERE id <= 2000;

SELECT id, big % 1000 FROM t_all WHERE id <= 2000;

SELECT id, CAST(tiny AS INT) + CAST(small AS INT) FROM t_all WHERE id <= 2000;

SELECT id, CAST(tiny AS INT) * 1000 FROM t_all WHERE id <= 2000;

SELECT id, CAST(small AS INT) * CAST(small AS INT) FROM t_all WHERE id <= 2000;

SELECT id, tiny + 0L FROM t_all WHERE id <= 500;
-- duckdb: SELECT id, CAST(tiny AS BIGINT) + 0 FROM t_all WHERE id <= 500

SELECT id, dbl + 1, dbl - 0.5, dbl * 3, dbl / 4 FROM t_all WHERE id <= 2000;

SELECT id, dbl * dbl, dbl / (num + 0.5) FROM t_all WHERE id <= 2000;

SELECT id, dbl % 7 FROM t_all WHERE id <= 2000;

SELECT id, num + dbl, big + dbl FROM t_all WHERE id <= 2000;

SELECT id, amt + 1, amt - 0.01, amt * 2 FROM t_all WHERE id <= 2000;

SELECT id, amt + amt, amt - amt, amt * amt FROM t_all WHERE id <= 2000;

SELECT id, amt + prec, prec - amt FROM t_all WHERE id <= 2000;

SELECT id, amt * prec FROM t_all WHERE id <= 2000;
-- duckdb: SELECT id, CAST(amt AS DECIMAL(30,2)) * prec FROM t_all WHERE id <= 2000

SELECT id, amt + num, amt * num FROM t_all WHERE id <= 2000;

SELECT id, amt + dbl FROM t_all WHERE id <= 2000;

SELECT id, amt / 4 FROM t_all WHERE id <= 2000;

SELECT id, amt / 3 FROM t_all WHERE id <= 2000;
-- abs_tol: 1e-9

SELECT id, amt % 7 FROM t_all WHERE id <= 2000;

SELECT id, amt / 0 FROM t_all WHERE id <= 100;
-- duckdb: SELECT id, CAST(NULL AS DOUBLE) FROM t_all WHERE id <= 100

SELECT id, prec * 1000 FROM t_all WHERE id <= 2000;

SELECT id, abs(num), abs(big), abs(dbl), abs(amt), abs(prec) FROM t_all WHERE id <= 2000;

SELECT id, abs(CAST(tiny AS INT)), abs(CAST(small AS INT)) FROM t_all WHERE id <= 2000;

SELECT id, (num + 1) * (num - 1) FROM t_all WHERE num BETWEEN -40000 AND 40000 AND id <= 3000;

SELECT id, num - num % 10 FROM t_all WHERE id <= 1000;

SELECT id, 2 + 3 * num - 4 FROM t_all WHERE id <= 1000;

SELECT id, (2 + 3) * (num - 4) FROM t_all WHERE id <= 1000;

SELECT id, 1.5 * num, 0.25 + num FROM t_all WHERE id <= 1000;

SELECT 7 / 2, 7 DIV 2, -7 % 3, 7 % -3, -7 DIV 2, 1 / 0, 2.5 * 4, 1.1 + 2.25;
-- duckdb: SELECT 7 / 2, 7 // 2, -7 % 3, 7 % -3, -7 // 2, CAST(NULL AS DOUBLE), 2.5 * 4, 1.1 + 2.25

SELECT 2147483647 + 0L, -2147483648 - 1L, 9007199254740993 + 0;

SELECT 0.1 + 0.2, 1.0 / 3, 10.00 - 0.005;

SELECT CAST(1 AS BIGINT) * 3000000000, 5e-3 * 2, 1e10 / 4;

SELECT id, num + 1 > 0 AS p, dbl * 2 <= amt AS q FROM t_all WHERE id <= 1000;

SELECT k, weight * 2 + price FROM dim;

SELECT k, price * price, price / 2 FROM dim;

SELECT sid, sid * sid, sid / 4, sid DIV 4, sid % 4 FROM small;

-- section: cast
SELECT id, CAST(num AS BIGINT), CAST(num AS DOUBLE), CAST(num AS STRING) FROM t_all WHERE id <= 2000;

SELECT id, CAST(num AS DECIMAL(12,2)), CAST(big AS DECIMAL(20,0)) FROM t_all WHERE id <= 2000;

SELECT id, CAST(tiny AS SMALLINT), CAST(small AS INT), CAST(tiny AS STRING) FROM t_all WHERE id <= 2000;

SELECT id, CAST(dbl AS INT), CAST(dbl AS BIGINT) FROM t_all WHERE id <= 2000;
-- duckdb: SELECT id, CAST(trunc(dbl) AS INT), CAST(trunc(dbl) AS BIGINT) FROM t_all WHERE id <= 2000

SELECT id, CAST(amt AS INT), CAST(prec AS BIGINT) FROM t_all WHERE id <= 2000;
-- duckdb: SELECT id, CAST(trunc(amt) AS INT), CAST(trunc(prec) AS BIGINT) FROM t_all WHERE id <= 2000

SELECT id, CAST(amt AS DOUBLE), CAST(prec AS DOUBLE) FROM t_all WHERE id <= 2000;

SELECT id, CAST(amt AS DECIMAL(14,4)), CAST(prec AS DECIMAL(20,2)) FROM t_all WHERE id <= 2000;

SELECT id, CAST(amt AS DECIMAL(12,1)) FROM t_all WHERE id <= 2000;

SELECT id, CAST(amt AS STRING), CAST(prec AS STRING) FROM t_all WHERE id <= 2000;

SELECT id, CAST(flag AS INT), CAST(flag AS STRING) FROM t_all WHERE id <= 1000;

SELECT id, CAST(num AS BOOLEAN), CAST(dbl AS BOOLEAN) FROM t_all WHERE id <= 1000;

SELECT id, CAST(day AS STRING), CAST(day AS TIMESTAMP) FROM t_all WHERE id <= 2000;

SELECT id, CAST(ts AS DATE), CAST(ts AS STRING) FROM t_all WHERE id <= 2000;

SELECT id, CAST(ts AS BIGINT) FROM t_all WHERE id <= 2000;
-- duckdb: SELECT id, CAST(floor(epoch(ts)) AS BIGINT) FROM t_all WHERE id <= 2000

SELECT id, CAST(name AS INT) FROM t_all WHERE name IN ('123', '-4.5', 'alpha');
-- duckdb: SELECT id, CAST(trunc(TRY_CAST(name AS DOUBLE)) AS INT) FROM t_all WHERE name IN ('123', '-4.5', 'alpha')

SELECT id, CAST(name AS DOUBLE) FROM t_all WHERE name IN ('123', '-4.5', 'alpha', '');
-- duckdb: SELECT id, TRY_CAST(name AS DOUBLE) FROM t_all WHERE name IN ('123', '-4.5', 'alpha', '')

SELECT id, CAST(name AS DECIMAL(5,1)) FROM t_all WHERE name IN ('123', '-4.5', 'x_y');
-- duckdb: SELECT id, TRY_CAST(name AS DECIMAL(5,1)) FROM t_all WHERE name IN ('123', '-4.5', 'x_y')

SELECT CAST('2024-03-01' AS DATE), CAST('2024-03-01 10:11:12.5' AS TIMESTAMP), CAST('17' AS INT), CAST('true' AS BOOLEAN);

SELECT CAST('abc' AS INT), CAST('2023-02-29' AS DATE), CAST('' AS DOUBLE);
-- duckdb: SELECT TRY_CAST('abc' AS INT), TRY_CAST('2023-02-29' AS DATE), TRY_CAST('' AS DOUBLE)

SELECT id, CAST(CAST(num AS STRING) AS INT) = num FROM t_all WHERE id <= 1000;

SELECT id, CAST(CAST(amt AS STRING) AS DECIMAL(12,2)) FROM t_all WHERE id <= 1000;

SELECT id, CAST(big AS DOUBLE) / 1000003 FROM t_all WHERE id <= 1000;

SELECT CAST(1.999 AS DECIMAL(4,2)), CAST(-1.995 AS DECIMAL(4,2)), CAST(0.005 AS DECIMAL(3,2));

SELECT CAST(123.456 AS DECIMAL(5,2)), CAST(12345.6 AS DECIMAL(5,2));
-- duckdb: SELECT CAST(123.456 AS DECIMAL(5,2)), TRY_CAST(12345.6 AS DECIMAL(5,2))

SELECT id, CAST(small AS DECIMAL(5,1)) * 2 FROM t_all WHERE id <= 500;

-- section: string
SELECT id, concat(name, '-', cat) FROM t_all WHERE id <= 2000;
-- duckdb: SELECT id, name || '-' || cat FROM t_all WHERE id <= 2000

SELECT id, name || cat FROM t_all WHERE id <= 2000;

SELECT id, concat(cat, cat, cat) FROM t_all WHERE id <= 2000;
-- duckdb: SELECT id, cat || cat || cat FROM t_all WHERE id <= 2000

SELECT id, concat(num, '/', day) FROM t_all WHERE id <= 2000;
-- duckdb: SELECT id, CAST(num AS VARCHAR) || '/' || CAST(day AS VARCHAR) FROM t_all WHERE id <= 2000

SELECT id, length(name) FROM t_all WHERE id <= 3000;

SELECT length(name), count(*) FROM t_all GROUP BY length(name);

SELECT id, upper(cat), lower(cat), ucase(cat), lcase(cat) FROM t_all WHERE id <= 2000;

# upper/lower are ASCII-only in hivelite (docs/sql.md), so non-ASCII names are left out
SELECT id, upper(name) FROM t_all WHERE name NOT LIKE 'caf%' AND name NOT LIKE '日%' AND id <= 3000;

SELECT id, lower(name) FROM t_all WHERE name LIKE '%a%' AND name NOT LIKE 'caf%';

SELECT id, trim(name), ltrim(name), rtrim(name) FROM t_all WHERE name LIKE '%padded%';

SELECT id, length(trim(name)) FROM t_all WHERE id <= 2000;

SELECT id, substr(name, 1, 3) FROM t_all WHERE id <= 2000;

SELECT id, substr(name, 2) FROM t_all WHERE id <= 2000;

SELECT id, substr(name, 3, 2), substring(name, 1, 1) FROM t_all WHERE id <= 2000;

# Hive's substr gives '' when -pos is beyond the length; DuckDB clamps
SELECT id, substr(name, -3) FROM t_all WHERE id <= 2000;
-- duckdb: SELECT id, CASE WHEN length(name) < 3 THEN '' ELSE substr(name, -3) END FROM t_all WHERE id <= 2000

SELECT id, substr(name, -4, 2) FROM t_all WHERE id <= 2000;
-- duckdb: SELECT id, CASE WHEN length(name) < 4 THEN '' ELSE substr(name, -4, 2) END FROM t_all WHERE id <= 2000

SELECT id, substr(name, 100) FROM t_all WHERE id <= 500;

SELECT id, substr(name, 2, 0) FROM t_all WHERE id <= 500;

SELECT substr('café au lait', 3, 4), substr('日本語', 2, 1), length('日本語'), substr('hello', -3, 2);

SELECT id, name FROM t_all WHERE name LIKE 'a%';

SELECT id, name FROM t_all WHERE name LIKE '%o';

SELECT id, name FROM t_all WHERE name LIKE '%ar%';

SELECT id, name FROM t_all WHERE name LIKE '_e%';

SELECT id, name FROM t_all WHERE name LIKE '____';

SELECT id, name FROM t_all WHERE name NOT LIKE '%a%' AND id < 3000;

SELECT id, name FROM t_all WHERE name LIKE 'a\%b%';
-- duckdb: SELECT id, name FROM t_all WHERE name LIKE 'a\%b%' ESCAPE '\'

SELECT id, name FROM t_all WHERE name LIKE 'x\_y';
-- duckdb: SELECT id, name FROM t_all WHERE name LIKE 'x\_y' ESCAPE '\'

SELECT count(*) FROM t_all WHERE name LIKE '%\_%';
-- duckdb: SELECT count(*) FROM t_all WHERE name LIKE '%\_%' ESCAPE '\'

SELECT count(*) FROM t_all WHERE name LIKE '%';

SELECT count(*) FROM t_all WHERE name LIKE '';

SELECT count(*) FROM t_all WHERE name LIKE '%caf_%';

SELECT count(*) FROM t_all WHERE name LIKE '日%';

SELECT id, name FROM t_all WHERE name RLIKE '^[A-Z]';
-- duckdb: SELECT id, name FROM t_all WHERE regexp_matches(name, '^[A-Z]')

SELECT count(*) FROM t_all WHERE name RLIKE '[0-9]{3}$';
-- duckdb: SELECT count(*) FROM t_all WHERE regexp_matches(name, '[0-9]{3}$')

SELECT count(*) FROM t_all WHERE name REGEXP 'ar|ie';
-- duckdb: SELECT count(*) FROM t_all WHERE regexp_matches(name, 'ar|ie')

SELECT count(*) FROM t_all WHERE name NOT RLIKE 'a';
-- duckdb: SELECT count(*) FROM t_all WHERE NOT regexp_matches(name, 'a')

SELECT id, name FROM t_all WHERE name RLIKE '^[[:alpha:]]+$' AND id < 2000;
-- duckdb: SELECT id, name FROM t_all WHERE regexp_matches(name, '^[[:alpha:]]+$') AND id < 2000

SELECT id, cat = name, cat < name FROM t_all WHERE id <= 2000;

SELECT min(name), max(name), min(cat), max(cat) FROM t_all;

SELECT id, if(length(name) > 5, upper(cat), lower(cat)) FROM t_all WHERE id <= 1000;

SELECT id, concat(substr(cat, 1, 1), substr(name, -2)) FROM t_all WHERE id <= 1000;
-- duckdb: SELECT id, substr(cat, 1, 1) || substr(name, -2) FROM t_all WHERE id <= 1000

SELECT label, length(label), upper(grp) FROM dim;

SELECT txt, length(txt) FROM csv_t WHERE id <= 500;

SELECT sname, concat(sname, '!') FROM small;
-- duckdb: SELECT sname, sname || '!' FROM small

SELECT 'a' || 'b', concat('x', 'y', 'z'), length(''), upper('mIxEd'), trim('  t  '), ltrim('  t'), rtrim('t  ');

SELECT concat('a', NULL), 'a' || NULL, length(NULL), upper(NULL);
-- duckdb: SELECT CAST(NULL AS VARCHAR), CAST(NULL AS VARCHAR), CAST(NULL AS INT), CAST(NULL AS VARCHAR)

-- section: datetime
SELECT id, day, ts FROM t_all WHERE id <= 3000;

SELECT id FROM t_all WHERE day > CAST(ts AS DATE);

SELECT count(*) FROM t_all WHERE CAST(day AS TIMESTAMP) < ts;

SELECT min(day), max(day), min(ts), max(ts) FROM t_all;

SELECT day, count(*) FROM t_all WHERE day < '2020-02-01' GROUP BY day;

SELECT CAST(ts AS DATE) AS d, count(*) FROM t_all GROUP BY CAST(ts AS DATE) ORDER BY d NULLS FIRST LIMIT 20;

SELECT id, ts FROM t_all WHERE ts IS NOT NULL ORDER BY ts DESC NULLS LAST, id LIMIT 25;

SELECT id, day FROM t_all ORDER BY day NULLS FIRST, id LIMIT 30;

SELECT id, day FROM t_all ORDER BY day DESC NULLS FIRST, id DESC LIMIT 30;

SELECT id FROM t_all WHERE day = CAST('2021-07-04' AS DATE) OR ts = CAST('2021-07-04 00:00:00' AS TIMESTAMP);

SELECT count(DISTINCT day), count(DISTINCT ts) FROM t_all;

SELECT id, day = '2000-02-29', ts > '2024-01-01 12:00:00' FROM t_all WHERE id <= 1000;

SELECT DATE '2024-02-29', TIMESTAMP '2024-01-01 00:00:00.000001', TIMESTAMP '1969-12-31 23:59:59.5', DATE '1900-01-01';

SELECT id, coalesce(ts, CAST(day AS TIMESTAMP)) FROM t_all WHERE id <= 1000;

SELECT id, CASE WHEN day < '2022-01-01' THEN 'old' WHEN day < '2024-01-01' THEN 'mid' ELSE 'new' END FROM t_all WHERE id <= 2000;

-- section: interval
SELECT id, day + INTERVAL '1' MONTH, day - INTERVAL '1-2' YEAR TO MONTH, ts + INTERVAL '13' MONTHS, day + INTERVAL '4' YEAR FROM t_all WHERE id <= 3000;
-- duckdb: SELECT id, CAST(day + INTERVAL 1 MONTH AS DATE), CAST(day - INTERVAL 14 MONTH AS DATE), ts + INTERVAL 13 MONTH, CAST(day + INTERVAL 48 MONTH AS DATE) FROM t_all WHERE id <= 3000

SELECT id, day + INTERVAL '3' DAY, ts - INTERVAL '1 02:03:04.5' DAY TO SECOND, ts + INTERVAL '-0 00:00:00.000001' DAY TO SECOND FROM t_all WHERE id <= 3000;
-- duckdb: SELECT id, CAST(day AS TIMESTAMP) + INTERVAL 3 DAY, ts - INTERVAL '1 day 02:03:04.5', ts + INTERVAL '-00:00:00.000001' FROM t_all WHERE id <= 3000

SELECT id, day(day - DATE '2000-01-01') FROM t_all WHERE id <= 3000;
-- duckdb: SELECT id, day - DATE '2000-01-01' FROM t_all WHERE id <= 3000

-- section: case
SELECT id, CASE WHEN num > 0 THEN 'pos' WHEN num < 0 THEN 'neg' ELSE 'zero-or-null' END FROM t_all WHERE id <= 3000;

SELECT id, CASE WHEN num > 0 THEN 'pos' WHEN num < 0 THEN 'neg' END FROM t_all WHERE id <= 3000;

SELECT id, CASE cat WHEN 'a' THEN 1 WHEN 'b' THEN 2 ELSE 0 END FROM t_all WHERE id <= 3000;

SELECT id, CASE cat WHEN 'a' THEN 1 WHEN NULL THEN -1 END FROM t_all WHERE id <= 1000;
-- duckdb: SELECT id, CASE cat WHEN 'a' THEN 1 WHEN CAST(NULL AS VARCHAR) THEN -1 END FROM t_all WHERE id <= 1000

SELECT id, CASE WHEN flag THEN num ELSE big END FROM t_all WHERE id <= 2000;

SELECT id, CASE WHEN flag THEN amt ELSE prec END FROM t_all WHERE id <= 2000;

SELECT id, CASE WHEN flag THEN dbl ELSE num END FROM t_all WHERE id <= 2000;

SELECT id, CASE WHEN num IS NULL THEN 'n' WHEN flag IS NULL THEN 'f' ELSE name END FROM t_all WHERE id <= 2000;

SELECT id, if(flag, 'yes', 'no') FROM t_all WHERE id <= 2000;

SELECT id, if(num > 0, num, -num) FROM t_all WHERE id <= 2000;

SELECT id, if(num > 0, amt, 0) FROM t_all WHERE id <= 2000;

SELECT id, if(flag IS NULL, NULL, dbl) FROM t_all WHERE id <= 2000;
-- duckdb: SELECT id, if(flag IS NULL, CAST(NULL AS DOUBLE), dbl) FROM t_all WHERE id <= 2000

SELECT CASE WHEN num > 0 THEN 'p' ELSE 'n' END AS sgn, count(*), sum(num) FROM t_all GROUP BY CASE WHEN num > 0 THEN 'p' ELSE 'n' END;

SELECT sum(CASE WHEN flag THEN 1 ELSE 0 END), sum(CASE WHEN NOT flag THEN 1 END), count(CASE WHEN flag IS NULL THEN 1 END) FROM t_all;

SELECT cat, sum(CASE WHEN num > 0 THEN num ELSE 0 END), sum(CASE WHEN num < 0 THEN num END) FROM t_all GROUP BY cat;

SELECT id, CASE WHEN id % 3 = 0 THEN CASE WHEN flag THEN 'a' ELSE 'b' END ELSE 'c' END FROM t_all WHERE id <= 1000;

SELECT id, nvl(nullif(cat, ''), 'empty') FROM t_all WHERE id <= 1000;

SELECT id, coalesce(nullif(num, 0), -1) * 2 FROM t_all WHERE id <= 1000;

SELECT k, CASE grp WHEN 'red' THEN weight WHEN 'blue' THEN -weight ELSE 0 END FROM dim;

-- section: agg
SELECT count(*), count(num), sum(num), min(num), max(num), avg(num) FROM t_all;

SELECT sum(tiny), sum(small), sum(big), min(tiny), max(small), min(big), max(big) FROM t_all;

SELECT avg(tiny), avg(small), avg(big) FROM t_all;

SELECT sum(dbl), avg(dbl), min(dbl), max(dbl) FROM t_all;

SELECT sum(amt), min(amt), max(amt) FROM t_all;

SELECT avg(amt) FROM t_all;
-- abs_tol: 1e-6

SELECT sum(prec), min(prec), max(prec) FROM t_all;

SELECT avg(prec) FROM t_all;
-- abs_tol: 1e-10

SELECT min(flag), max(flag), count(flag) FROM t_all;

SELECT min(name), max(name), count(name), count(DISTINCT name) FROM t_all;

SELECT min(day), max(day), min(ts), max(ts), count(DISTINCT day) FROM t_all;

SELECT count(DISTINCT num), count(DISTINCT cat), count(DISTINCT flag), count(DISTINCT small) FROM t_all;

SELECT sum(DISTINCT small), avg(DISTINCT small), sum(DISTINCT tiny) FROM t_all;

SELECT sum(DISTINCT amt), count(DISTINCT amt) FROM t_all;

SELECT avg(DISTINCT dbl), sum(DISTINCT dbl) FROM t_all;

SELECT count(DISTINCT big), sum(DISTINCT big) FROM t_all;

SELECT count(*), sum(num), avg(dbl), min(name), max(day) FROM t_all WHERE num > 999000;

SELECT count(*), sum(num), avg(dbl), min(name), max(ts) FROM t_all WHERE 1 = 0;

SELECT count(*), sum(k), avg(weight), min(label), max(k), count(DISTINCT k) FROM empty_t;

SELECT count(*), sum(num) FROM t_all WHERE num IS NULL;

SELECT sum(num) + sum(big), sum(num + big), count(num + big) FROM t_all;

SELECT sum(CAST(num AS BIGINT) * num) FROM t_all WHERE num BETWEEN -1000 AND 1000;

SELECT sum(dbl * 2), avg(dbl + num) FROM t_all;

SELECT sum(amt * 2), sum(amt + prec), sum(amt * num) FROM t_all;

SELECT max(abs(num)), min(abs(dbl)), max(length(name)) FROM t_all;

SELECT count(*) + 1, sum(num) / count(num), max(num) - min(num) FROM t_all;

SELECT count(1), count(id), count(DISTINCT id) FROM t_all;

SELECT sum(weight), sum(price), count(DISTINCT grp), count(k), count(DISTINCT k) FROM dim;

SELECT avg(price) FROM dim;
-- abs_tol: 1e-7

SELECT count(*), count(uid), count(DISTINCT uid), sum(amount), sum(score), min(tag), max(ok) FROM part;

SELECT count(*), sum(val), min(txt), max(txt) FROM csv_t;

SELECT count(*), count(name), sum(score), sum(qty), count(active), min(name) FROM json_t;

SELECT count(*), max(sid), min(sname), count(sflag) FROM small;

SELECT sum(CASE WHEN cat = 'a' THEN dbl END) / sum(dbl) FROM t_all;

SELECT count(DISTINCT cat), count(DISTINCT coalesce(cat, 'x')) FROM t_all;

# percentile_cont: Hive's interpolation formula rounds apart from DuckDB's
# lo + d * (hi - lo) in the last bits (percentile_disc is not compared: Hive
# takes the higher neighbour of position p * (n - 1), DuckDB the SQL rank)
SELECT cat, percentile_cont(0.25) WITHIN GROUP (ORDER BY dbl), percentile_cont(0.5) WITHIN GROUP (ORDER BY num DESC), percentile_cont(big, 0.9) FROM t_all GROUP BY cat;
-- abs_tol: 1e-6
-- duckdb: SELECT cat, percentile_cont(0.25) WITHIN GROUP (ORDER BY dbl), percentile_cont(0.5) WITHIN GROUP (ORDER BY num DESC), percentile_cont(0.9) WITHIN GROUP (ORDER BY big) FROM t_all GROUP BY cat

SELECT percentile_cont(0.0) WITHIN GROUP (ORDER BY amt), percentile_cont(1.0) WITHIN GROUP (ORDER BY tiny), percentile_cont(0.5) WITHIN GROUP (ORDER BY weight) FROM t_all, empty_t WHERE id < 0;
-- duckdb: SELECT CAST(percentile_cont(0.0) WITHIN GROUP (ORDER BY amt) AS DOUBLE), CAST(percentile_cont(1.0) WITHIN GROUP (ORDER BY tiny) AS DOUBLE), percentile_cont(0.5) WITHIN GROUP (ORDER BY weight) FROM t_all, empty_t WHERE id < 0

-- section: group
SELECT cat, count(*) FROM t_all GROUP BY cat;

SELECT cat, count(*), sum(num), min(num), max(num), avg(num) FROM t_all GROUP BY cat;

SELECT cat, sum(dbl), avg(dbl) FROM t_all GROUP BY cat;

SELECT cat, sum(amt), min(amt), max(prec) FROM t_all GROUP BY cat;

SELECT cat, avg(amt) FROM t_all GROUP BY cat;
-- abs_tol: 1e-6

SELECT flag, count(*), count(num), sum(big) FROM t_all GROUP BY flag;

SELECT tiny, count(*) FROM t_all GROUP BY tiny;

SELECT small, count(*), sum(num) FROM t_all GROUP BY small;

SELECT num, count(*) FROM t_all WHERE num BETWEEN -10 AND 10 GROUP BY num;

SELECT num, count(*) FROM t_all GROUP BY num HAVING count(*) > 1;

SELECT big, count(*) FROM t_all GROUP BY big HAVING count(*) > 2;

SELECT dbl, count(*) FROM t_all GROUP BY dbl HAVING count(*) > 1;

SELECT amt, count(*) FROM t_all GROUP BY amt HAVING count(*) > 1;

SELECT name, count(*) FROM t_all GROUP BY name;

SELECT day, count(*) FROM t_all GROUP BY day HAVING count(*) >= 10;

SELECT ts, count(*) FROM t_all GROUP BY ts HAVING count(*) > 1;

SELECT cat, flag, count(*), sum(num) FROM t_all GROUP BY cat, flag;

SELECT cat, flag, small, count(*) FROM t_all GROUP BY cat, flag, small;

SELECT cat, name, count(*) FROM t_all GROUP BY cat, name HAVING count(*) > 3;

SELECT cat, count(DISTINCT name), count(DISTINCT small), count(DISTINCT flag) FROM t_all GROUP BY cat;

SELECT cat, sum(DISTINCT small), avg(DISTINCT tiny) FROM t_all GROUP BY cat;

SELECT cat, count(*) FROM t_all GROUP BY cat HAVING count(*) > 500;

SELECT cat, count(*) FROM t_all GROUP BY cat HAVING sum(num) > 0;

SELECT cat, sum(num) FROM t_all GROUP BY cat HAVING avg(dbl) > 160 AND count(*) < 1000;

SELECT cat, max(num) FROM t_all GROUP BY cat HAVING max(num) - min(num) > 1900000;

SELECT cat, count(*) FROM t_all GROUP BY cat HAVING cat IS NULL OR cat > 'f';

SELECT cat, count(*) FROM t_all WHERE num > 0 GROUP BY cat HAVING count(*) > 100;

SELECT count(*) FROM t_all HAVING count(*) > 100;

SELECT count(*) FROM t_all HAVING count(*) > 100000;

SELECT cat, count(*) FROM t_all GROUP BY 1;

SELECT cat, flag, count(*) FROM t_all GROUP BY 1, 2;

SELECT num % 10, count(*) FROM t_all GROUP BY num % 10;

SELECT num % 10 AS m, count(*) FROM t_all GROUP BY 1;

SELECT upper(cat), count(*) FROM t_all GROUP BY upper(cat);

SELECT length(name) > 5, count(*) FROM t_all GROUP BY length(name) > 5;

SELECT CAST(day AS STRING) < '2022', count(*) FROM t_all GROUP BY CAST(day AS STRING) < '2022';

SELECT coalesce(cat, 'null'), count(*) FROM t_all GROUP BY coalesce(cat, 'null');

SELECT flag IS NULL, num IS NULL, count(*) FROM t_all GROUP BY flag IS NULL, num IS NULL;

SELECT cat, count(*) * 2, sum(num) / count(*), max(num) + 1 FROM t_all GROUP BY cat;

SELECT cat, sum(num) + sum(big), avg(num) * 2 FROM t_all GROUP BY cat;

SELECT cat, concat(cat, '!'), count(*) FROM t_all GROUP BY cat;
-- duckdb: SELECT cat, cat || '!', count(*) FROM t_all GROUP BY cat

SELECT k, count(*), sum(weight) FROM dim GROUP BY k;

SELECT grp, count(*), sum(price), avg(weight) FROM dim GROUP BY grp;

SELECT grp, avg(price) FROM dim GROUP BY grp;
-- abs_tol: 1e-7

SELECT tag, count(*), sum(amount), avg(score) FROM part GROUP BY tag;

SELECT ok, count(*), count(DISTINCT uid) FROM part GROUP BY ok;

SELECT uid, count(*), sum(amount) FROM part GROUP BY uid HAVING count(*) > 50;

SELECT id % 7, count(*), sum(num) FROM t_all GROUP BY id % 7;

SELECT cat, min(name), max(name), min(day), max(ts) FROM t_all GROUP BY cat;

SELECT sname, count(*) FROM small GROUP BY sname;

SELECT name, count(*) FROM json_t GROUP BY name;

SELECT k, count(*) FROM empty_t GROUP BY k;

SELECT id, count(*) FROM t_all GROUP BY id HAVING count(*) > 1;

-- section: distinct
SELECT DISTINCT cat FROM t_all;

SELECT DISTINCT flag FROM t_all;

SELECT DISTINCT cat, flag FROM t_all;

SELECT DISTINCT small FROM t_all;

SELECT DISTINCT name FROM t_all;

SELECT DISTINCT day FROM t_all WHERE day < '2020-03-01';

SELECT DISTINCT amt FROM t_all WHERE amt BETWEEN -1000 AND 1000;

SELECT DISTINCT dbl FROM t_all WHERE dbl BETWEEN -20 AND 20;

SELECT DISTINCT num % 5, num > 0 FROM t_all;

SELECT DISTINCT k FROM dim;

SELECT DISTINCT grp, k % 3 FROM dim;

SELECT DISTINCT tag, ok FROM part;

SELECT DISTINCT * FROM small;

SELECT DISTINCT k FROM empty_t;

SELECT DISTINCT cat FROM t_all ORDER BY cat NULLS FIRST;

SELECT DISTINCT cat FROM t_all ORDER BY cat DESC NULLS LAST LIMIT 4;

SELECT DISTINCT cat, flag FROM t_all ORDER BY cat NULLS LAST, flag NULLS FIRST;

SELECT count(*) FROM (SELECT DISTINCT name, cat FROM t_all) x;

SELECT ALL cat FROM t_all WHERE id < 100;

-- section: order
SELECT id, num FROM t_all ORDER BY num NULLS FIRST, id LIMIT 50;

SELECT id, num FROM t_all ORDER BY num NULLS LAST, id LIMIT 50;

SELECT id, num FROM t_all ORDER BY num DESC NULLS FIRST, id LIMIT 50;

SELECT id, num FROM t_all ORDER BY num DESC NULLS LAST, id DESC LIMIT 50;

SELECT id, dbl FROM t_all ORDER BY dbl ASC NULLS FIRST, id ASC LIMIT 40;

SELECT id, dbl FROM t_all ORDER BY dbl DESC NULLS LAST, id LIMIT 40;

SELECT id, amt FROM t_all ORDER BY amt NULLS LAST, id LIMIT 40;

SELECT id, amt FROM t_all ORDER BY amt DESC NULLS LAST, id LIMIT 40;

SELECT id, prec FROM t_all ORDER BY prec DESC NULLS FIRST, id LIMIT 40;

SELECT id, big FROM t_all ORDER BY big NULLS LAST, id LIMIT 40;

SELECT id, tiny FROM t_all ORDER BY tiny DESC NULLS LAST, id LIMIT 40;

SELECT id, name FROM t_all ORDER BY name NULLS FIRST, id LIMIT 60;

SELECT id, name FROM t_all ORDER BY name DESC NULLS LAST, id LIMIT 60;

SELECT id, flag FROM t_all ORDER BY flag NULLS FIRST, id LIMIT 30;

SELECT id, flag FROM t_all ORDER BY flag DESC NULLS LAST, id DESC LIMIT 30;

SELECT id, ts FROM t_all ORDER BY ts NULLS FIRST, id LIMIT 40;

SELECT id, cat, num FROM t_all ORDER BY cat NULLS LAST, num DESC NULLS LAST, id LIMIT 100;

SELECT id, cat, flag, small FROM t_all ORDER BY flag NULLS FIRST, cat DESC NULLS FIRST, small NULLS LAST, id LIMIT 100;

SELECT id FROM t_all ORDER BY id LIMIT 10;

SELECT id FROM t_all ORDER BY id DESC LIMIT 10 OFFSET 5;

SELECT id FROM t_all ORDER BY id LIMIT 10 OFFSET 11995;

SELECT id FROM t_all ORDER BY id LIMIT 0;

SELECT id, num FROM t_all ORDER BY num NULLS FIRST, id LIMIT 25 OFFSET 1000;

SELECT id, num FROM t_all ORDER BY num NULLS FIRST, id LIMIT 1000, 5;
-- duckdb: SELECT id, num FROM t_all ORDER BY num NULLS FIRST, id LIMIT 5 OFFSET 1000

SELECT id, num FROM t_all WHERE cat = 'b' ORDER BY num * 2 NULLS LAST, id LIMIT 30;

SELECT id, num FROM t_all ORDER BY abs(num) NULLS LAST, id LIMIT 30;

SELECT id, num, dbl FROM t_all ORDER BY 2 DESC NULLS LAST, 1 LIMIT 30;

SELECT id AS x, num AS y FROM t_all ORDER BY y NULLS FIRST, x LIMIT 30;

SELECT id FROM t_all ORDER BY dbl DESC NULLS FIRST, id LIMIT 30;

SELECT id, name FROM t_all ORDER BY length(name) DESC NULLS LAST, name NULLS LAST, id LIMIT 30;

SELECT id, day FROM t_all WHERE flag ORDER BY day DESC NULLS LAST, id LIMIT 50;

SELECT cat, count(*) AS n FROM t_all GROUP BY cat ORDER BY n DESC NULLS LAST, cat NULLS FIRST;

SELECT cat, sum(num) AS s FROM t_all GROUP BY cat ORDER BY s NULLS FIRST, cat NULLS FIRST;

SELECT cat, count(*) FROM t_all GROUP BY cat ORDER BY count(*) DESC NULLS LAST, cat NULLS LAST LIMIT 3;

SELECT small, count(*) AS n FROM t_all GROUP BY small ORDER BY n DESC NULLS LAST, small NULLS FIRST LIMIT 10;

SELECT k, label, weight FROM dim ORDER BY k NULLS FIRST, label NULLS FIRST, weight NULLS FIRST;

SELECT k, label FROM dim ORDER BY k DESC NULLS LAST, label DESC NULLS LAST LIMIT 20;

SELECT id, num FROM t_all WHERE num > 999900 ORDER BY num NULLS FIRST, id;

SELECT * FROM small ORDER BY sid NULLS LAST, sname NULLS LAST;

SELECT * FROM empty_t ORDER BY k NULLS FIRST LIMIT 5;

SELECT id, score FROM part ORDER BY score DESC NULLS LAST, id LIMIT 20;

SELECT id, txt FROM csv_t ORDER BY txt NULLS FIRST, id LIMIT 20;

SELECT id, name, qty FROM json_t ORDER BY qty DESC NULLS LAST, id LIMIT 20;

SELECT id FROM t_all WHERE cat = 'j' ORDER BY id LIMIT 5000;

SELECT id, num FROM t_all ORDER BY num NULLS FIRST, id LIMIT 3000;

SELECT id, ts FROM t_all ORDER BY ts DESC NULLS FIRST, id DESC LIMIT 2500;

SELECT id, num FROM t_all ORDER BY CAST(small AS INT) + 0 NULLS FIRST, id LIMIT 20;

-- section: join
SELECT t.id, d.label FROM t_all t JOIN dim d ON t.small = d.k;

SELECT t.id, d.label FROM t_all t INNER JOIN dim d ON d.k = t.small WHERE t.id < 3000;

SELECT count(*), sum(d.weight) FROM t_all t JOIN dim d ON t.small = d.k;

SELECT d.k, count(*) FROM t_all t JOIN dim d ON t.small = d.k GROUP BY d.k;

SELECT t.id, d.k, d.label FROM t_all t LEFT JOIN dim d ON t.small = d.k WHERE t.id <= 3000;

SELECT count(*), count(d.k), count(t.small) FROM t_all t LEFT JOIN dim d ON t.small = d.k;

SELECT t.id, d.k FROM t_all t RIGHT JOIN dim d ON t.small = d.k WHERE d.k IS NULL OR d.k > 100 OR t.id < 500;

SELECT count(*), count(t.id), count(d.k) FROM t_all t RIGHT JOIN dim d ON t.small = d.k;

SELECT d.k, count(t.id) FROM t_all t RIGHT JOIN dim d ON t.small = d.k GROUP BY d.k;

SELECT count(*), count(t.id), count(d.k), count(d.label) FROM t_all t FULL JOIN dim d ON t.small = d.k;

SELECT d.k, t.small, count(*) FROM t_all t FULL OUTER JOIN dim d ON t.small = d.k GROUP BY d.k, t.small;

SELECT t.id, d.k FROM t_all t FULL JOIN dim d ON t.small = d.k WHERE t.id IS NULL OR d.k IS NULL;

SELECT t.id, d.label FROM t_all t JOIN dim d ON t.small = d.k AND d.grp = 'red';

SELECT t.id, d.label FROM t_all t LEFT JOIN dim d ON t.small = d.k AND d.grp = 'red' WHERE t.id <= 2000;

SELECT t.id, d.label FROM t_all t LEFT JOIN dim d ON t.small = d.k AND t.flag WHERE t.id <= 2000;

SELECT t.id, d.label FROM t_all t JOIN dim d ON t.small = d.k AND t.num > d.weight * 1000;

SELECT t.id, d.label FROM t_all t JOIN dim d ON t.small = d.k WHERE d.weight > 500 AND t.cat = 'b';

SELECT t.id, d.k FROM t_all t JOIN dim d ON t.small + 1 = d.k + 1 WHERE t.id < 4000;
-- duckdb: SELECT t.id, d.k FROM t_all t JOIN dim d ON CAST(t.small AS INT) + 1 = d.k + 1 WHERE t.id < 4000

SELECT t.id, s.sid FROM t_all t JOIN small s ON t.tiny = s.sid;

SELECT t.id, s.sname FROM t_all t JOIN small s ON t.cat = s.sname;

SELECT count(*) FROM t_all t JOIN small s ON t.cat = s.sname;

SELECT s.sname, count(*) FROM t_all t JOIN small s ON t.cat = s.sname GROUP BY s.sname;

SELECT count(*) FROM t_all a JOIN t_all b ON a.id = b.id;

SELECT count(*) FROM t_all a JOIN t_all b ON a.num = b.num;

SELECT count(*) FROM t_all a JOIN t_all b ON a.name = b.name AND a.cat = b.cat;

SELECT count(*) FROM t_all a JOIN t_all b ON a.day = b.day AND a.flag = b.flag;

SELECT count(*) FROM t_all a JOIN t_all b ON a.amt = b.amt;

SELECT count(*) FROM t_all a JOIN t_all b ON a.dbl = b.dbl;

SELECT count(*) FROM t_all a JOIN t_all b ON a.ts = b.ts;

SELECT a.id, b.id FROM t_all a JOIN t_all b ON a.id = b.id + 1 WHERE a.id <= 1000;

SELECT a.id, b.id FROM t_all a LEFT JOIN t_all b ON a.num = b.num AND a.id <> b.id WHERE a.num BETWEEN -3 AND 3 AND a.id < 3000;

SELECT count(*) FROM dim a JOIN dim b ON a.k = b.k;

SELECT a.k, a.label, b.label FROM dim a JOIN dim b ON a.k = b.k AND a.label < b.label;

SELECT count(*) FROM dim a FULL JOIN dim b ON a.k = b.k;

SELECT a.k, b.k FROM dim a LEFT JOIN dim b ON a.k = b.k WHERE b.k IS NULL;

SELECT count(*) FROM t_all t CROSS JOIN small s;

SELECT s.sid, d.k FROM small s CROSS JOIN dim d WHERE s.sid = 3;

SELECT s.sname, count(*), sum(d.weight) FROM small s CROSS JOIN dim d GROUP BY s.sname;

SELECT a.sid, b.sid FROM small a CROSS JOIN small b WHERE a.sid + b.sid = 20;

SELECT t.id, d.label FROM t_all t, dim d WHERE t.small = d.k AND t.id < 2000;

SELECT count(*) FROM t_all t, small s WHERE t.tiny = s.sid;

SELECT t.id, d.label FROM t_all t JOIN (SELECT k AS small, label FROM dim) d USING (small);

SELECT a.k, a.label, b.grp FROM dim a JOIN dim b USING (k);

SELECT a.k, b.k, a.label FROM dim a LEFT JOIN (SELECT k FROM dim WHERE grp = 'red') b USING (k);

SELECT a.k, b.k FROM (SELECT k FROM dim WHERE grp = 'blue') a FULL JOIN (SELECT k FROM dim WHERE grp = 'red') b USING (k);

SELECT count(*) FROM t_all a JOIN t_all b USING (id, cat);

SELECT t.id, d.k, e.k FROM t_all t JOIN dim d ON t.small = d.k LEFT JOIN empty_t e ON d.k = e.k WHERE t.id < 3000;

SELECT count(*) FROM t_all t JOIN empty_t e ON t.num = e.k;

SELECT count(*), count(e.k) FROM t_all t LEFT JOIN empty_t e ON t.num = e.k;

SELECT count(*), count(t.id) FROM empty_t e LEFT JOIN t_all t ON t.num = e.k;

SELECT count(*) FROM t_all t FULL JOIN empty_t e ON t.num = e.k;

SELECT count(*) FROM t_all t CROSS JOIN empty_t e;

SELECT t.id, d.label, s.sname FROM t_all t JOIN dim d ON t.small = d.k JOIN small s ON d.k = s.sid WHERE t.id < 6000;

SELECT d.grp, s.sflag, count(*) FROM t_all t JOIN dim d ON t.small = d.k JOIN small s ON s.sid = d.k GROUP BY d.grp, s.sflag;

SELECT count(*), count(s.sid) FROM t_all t LEFT JOIN dim d ON t.small = d.k LEFT JOIN small s ON d.k = s.sid;

SELECT t.id, d.k FROM t_all t JOIN dim d ON t.small = d.k ORDER BY t.id DESC, d.label NULLS FIRST, d.weight NULLS FIRST LIMIT 40;

SELECT p.dt, p.hr, count(*) FROM part p JOIN dim d ON p.uid = d.k GROUP BY p.dt, p.hr;

SELECT d.k, sum(p.amount) FROM part p JOIN dim d ON p.uid = d.k WHERE p.hr = 12 GROUP BY d.k;

SELECT t.id, j.name FROM t_all t JOIN json_t j ON t.id = j.id WHERE t.name = j.name;

SELECT count(*) FROM csv_t c JOIN json_t j ON c.id = j.id AND c.txt = j.name;

SELECT t.id, t.name FROM t_all t JOIN dim d ON t.name = d.label;

SELECT x.cat, x.n, y.m FROM (SELECT cat, count(*) AS n FROM t_all GROUP BY cat) x JOIN (SELECT cat, max(num) AS m FROM t_all GROUP BY cat) y ON x.cat = y.cat;

SELECT count(*) FROM t_all t JOIN dim d ON t.num = d.k;

SELECT t.id, d.k FROM t_all t JOIN dim d ON t.small = d.k WHERE t.small IS NULL;

SELECT d.k, count(t.id), count(*) FROM dim d LEFT JOIN t_all t ON t.small = d.k AND t.num > 0 GROUP BY d.k;

-- section: semi
SELECT id FROM t_all LEFT SEMI JOIN dim ON t_all.small = dim.k;

SELECT t.id, t.small FROM t_all t LEFT SEMI JOIN dim d ON t.small = d.k WHERE t.id < 3000;

SELECT count(*) FROM t_all t LEFT ANTI JOIN dim d ON t.small = d.k;

SELECT t.id, t.small FROM t_all t LEFT ANTI JOIN dim d ON t.small = d.k WHERE t.id < 2000;

SELECT count(*) FROM dim d LEFT SEMI JOIN t_all t ON t.small = d.k;

SELECT d.k, d.label FROM dim d LEFT ANTI JOIN t_all t ON t.small = d.k;

SELECT count(*) FROM t_all t LEFT SEMI JOIN dim d ON t.small = d.k AND d.grp = 'red';

SELECT s.sid FROM small s LEFT SEMI JOIN t_all t ON s.sid = t.tiny AND t.flag;

SELECT count(*) FROM t_all a LEFT SEMI JOIN t_all b ON a.num = b.num AND a.id <> b.id;

SELECT count(*) FROM small s LEFT ANTI JOIN dim d ON s.sid = d.k AND d.grp = 'red';

SELECT count(*) FROM t_all a LEFT ANTI JOIN t_all b ON a.num = b.num AND a.id <> b.id;

SELECT t.id FROM t_all t LEFT ANTI JOIN dim d ON t.small = d.k AND t.num > d.weight * 1000 WHERE t.id < 3000;

SELECT count(*) FROM t_all t LEFT SEMI JOIN empty_t e ON t.num = e.k;

SELECT count(*) FROM t_all t LEFT ANTI JOIN empty_t e ON t.num = e.k;

SELECT cat, count(*) FROM t_all t LEFT SEMI JOIN small s ON t.cat = s.sname GROUP BY cat;

SELECT cat, count(*) FROM t_all t LEFT ANTI JOIN small s ON t.cat = s.sname GROUP BY cat;

SELECT count(*) FROM part p LEFT ANTI JOIN dim d ON p.uid = d.k;

-- section: subquery
SELECT count(*) FROM t_all WHERE small IN (SELECT k FROM dim);

SELECT count(*) FROM t_all WHERE small NOT IN (SELECT k FROM dim);

SELECT count(*) FROM t_all WHERE small NOT IN (SELECT k FROM dim WHERE k IS NOT NULL);

SELECT id FROM t_all WHERE small IN (SELECT k FROM dim WHERE grp = 'blue') AND id < 4000;

SELECT count(*) FROM t_all WHERE cat IN (SELECT sname FROM small);

SELECT count(*) FROM t_all WHERE cat NOT IN (SELECT sname FROM small WHERE sname IS NOT NULL);

SELECT count(*) FROM t_all WHERE num IN (SELECT k FROM empty_t);

SELECT id, small IN (SELECT k FROM dim) FROM t_all WHERE id <= 500;

SELECT id, small NOT IN (SELECT k FROM dim WHERE k < 50) FROM t_all WHERE id <= 500;

SELECT count(*) FROM t_all WHERE EXISTS (SELECT 1 FROM dim WHERE k = 7);

SELECT count(*) FROM t_all WHERE EXISTS (SELECT 1 FROM empty_t);

SELECT count(*) FROM t_all WHERE NOT EXISTS (SELECT 1 FROM empty_t);

SELECT count(*) FROM t_all WHERE NOT EXISTS (SELECT k FROM dim);

SELECT id FROM t_all WHERE num > (SELECT max(k) FROM dim) * 9000 AND id < 3000;

SELECT id, num - (SELECT min(num) FROM t_all) FROM t_all WHERE id <= 500;

SELECT (SELECT count(*) FROM dim), (SELECT max(sid) FROM small), (SELECT sum(k) FROM empty_t);

SELECT count(*) FROM t_all WHERE dbl > (SELECT avg(dbl) FROM t_all);

SELECT cat, count(*) FROM t_all GROUP BY cat HAVING count(*) > (SELECT count(*) FROM dim) * 3;

SELECT id FROM t_all WHERE num = (SELECT max(num) FROM t_all);

SELECT id FROM t_all WHERE num = (SELECT num FROM t_all WHERE id = 5);

SELECT id FROM t_all WHERE num = (SELECT k FROM empty_t LIMIT 1);

SELECT x.cat, x.n FROM (SELECT cat, count(*) AS n FROM t_all GROUP BY cat) x WHERE x.n > 470;

SELECT max(n), min(n), sum(n) FROM (SELECT cat, count(*) AS n FROM t_all GROUP BY cat) x;

SELECT count(*) FROM (SELECT id FROM t_all WHERE flag) a;

SELECT y.c, count(*) FROM (SELECT cat AS c, num FROM (SELECT * FROM t_all WHERE num > 0) z) y GROUP BY y.c;

SELECT * FROM (SELECT id, num FROM t_all ORDER BY num DESC NULLS LAST, id LIMIT 10) t ORDER BY id;

SELECT avg(s) FROM (SELECT cat, sum(num) AS s FROM t_all GROUP BY cat) q;

SELECT count(*) FROM (SELECT DISTINCT small FROM t_all) q;

SELECT q.k, q.c FROM (SELECT k, count(*) AS c FROM dim GROUP BY k) q WHERE q.c > 1;

SELECT id FROM t_all WHERE small IN (SELECT sid FROM small WHERE sid IN (SELECT k FROM dim WHERE grp = 'green'));

SELECT count(*) FROM t_all WHERE id IN (SELECT id FROM t_all WHERE cat = 'c') AND num > 0;

SELECT count(*) FROM t_all WHERE name IN (SELECT label FROM dim);

SELECT count(*) FROM t_all WHERE day IN (SELECT max(day) FROM t_all);

SELECT count(*) FROM t_all WHERE amt IN (SELECT amt FROM t_all WHERE id < 100);

-- section: cte
WITH c AS (SELECT cat, count(*) AS n FROM t_all GROUP BY cat) SELECT * FROM c;

WITH c AS (SELECT cat, count(*) AS n FROM t_all GROUP BY cat) SELECT cat, n FROM c WHERE n > 470 ORDER BY n DESC, cat NULLS FIRST;

WITH pos AS (SELECT * FROM t_all WHERE num > 0) SELECT count(*), sum(num) FROM pos;

WITH a AS (SELECT id, num FROM t_all WHERE flag), b AS (SELECT id, dbl FROM t_all WHERE cat = 'a') SELECT count(*) FROM a JOIN b ON a.id = b.id;

WITH a AS (SELECT k FROM dim), b AS (SELECT k FROM a WHERE k > 100) SELECT * FROM b;

WITH a AS (SELECT small, count(*) AS n FROM t_all GROUP BY small) SELECT x.small, x.n, y.n FROM a x JOIN a y ON x.small = y.small + 1;

WITH e AS (SELECT * FROM empty_t) SELECT count(*) FROM e;

WITH c AS (SELECT id FROM t_all WHERE cat = 'j') SELECT count(*) FROM t_all WHERE id IN (SELECT id FROM c);

WITH c AS (SELECT cat, sum(num) AS s FROM t_all GROUP BY cat) SELECT max(s) - min(s) FROM c;

WITH d AS (SELECT DISTINCT day FROM t_all WHERE day < '2020-02-01') SELECT day FROM d ORDER BY day NULLS FIRST;

WITH t AS (SELECT id, num FROM t_all) SELECT id FROM t WHERE num = 0;

WITH x AS (SELECT sid, sname FROM small) SELECT a.sid, b.sid FROM x a CROSS JOIN x b WHERE a.sname = b.sname AND a.sid < b.sid;

WITH p AS (SELECT dt, hr, count(*) AS n FROM part GROUP BY dt, hr) SELECT dt, sum(n) FROM p GROUP BY dt;

WITH u AS (SELECT k FROM dim UNION ALL SELECT sid FROM small) SELECT count(*), count(DISTINCT k) FROM u;

WITH c AS (SELECT cat FROM t_all) SELECT cat, count(*) FROM c GROUP BY cat HAVING count(*) < 480;

-- section: setop
SELECT k FROM dim UNION ALL SELECT sid FROM small;

SELECT k FROM dim UNION SELECT sid FROM small;

SELECT k FROM dim INTERSECT SELECT sid FROM small;

SELECT k FROM dim EXCEPT SELECT sid FROM small;

SELECT sid FROM small EXCEPT SELECT k FROM dim;

SELECT cat FROM t_all UNION SELECT sname FROM small;

SELECT cat FROM t_all INTERSECT SELECT sname FROM small;

SELECT cat FROM t_all EXCEPT SELECT sname FROM small;

SELECT cat, flag FROM t_all UNION SELECT sname, sflag FROM small;

SELECT count(*) FROM (SELECT cat FROM t_all UNION ALL SELECT cat FROM t_all) u;

SELECT count(*) FROM (SELECT num FROM t_all UNION SELECT num FROM t_all) u;

SELECT id FROM t_all WHERE id < 10 UNION ALL SELECT id FROM t_all WHERE id > 11990 UNION ALL SELECT k FROM dim WHERE k < 5;

SELECT small FROM t_all UNION SELECT k FROM dim UNION SELECT sid FROM small;

SELECT k FROM dim UNION ALL SELECT k FROM empty_t;

SELECT k FROM dim INTERSECT SELECT k FROM empty_t;

SELECT k FROM dim EXCEPT SELECT k FROM empty_t;

SELECT k FROM empty_t EXCEPT SELECT k FROM dim;

SELECT num FROM t_all WHERE num BETWEEN -10 AND 10 INTERSECT SELECT sid FROM small;

SELECT day FROM t_all WHERE id < 100 UNION SELECT CAST(ts AS DATE) FROM t_all WHERE id < 100;

SELECT amt FROM t_all WHERE id < 300 UNION ALL SELECT price FROM dim;

SELECT num FROM t_all WHERE id < 50 UNION ALL SELECT big FROM t_all WHERE id < 50;

SELECT dbl FROM t_all WHERE id < 200 EXCEPT SELECT dbl FROM t_all WHERE num > 0;

SELECT x FROM (SELECT k AS x FROM dim UNION ALL SELECT sid FROM small) u ORDER BY x NULLS FIRST LIMIT 15;

SELECT k FROM dim UNION SELECT sid FROM small ORDER BY k DESC NULLS LAST LIMIT 10;

SELECT cat, count(*) FROM (SELECT cat FROM t_all WHERE flag UNION ALL SELECT sname FROM small) u GROUP BY cat;

SELECT name FROM t_all WHERE name LIKE 'a%' INTERSECT SELECT name FROM t_all WHERE name LIKE '%a';

SELECT NULL UNION SELECT NULL;
-- duckdb: SELECT CAST(NULL AS INT) UNION SELECT CAST(NULL AS INT)

SELECT 1 UNION ALL SELECT 2 UNION ALL SELECT 1;

-- section: partition
SELECT * FROM part WHERE dt = '2024-01-01' AND hr = 23;

SELECT count(*) FROM part WHERE dt = '2024-01-01';

SELECT count(*), sum(amount), sum(score) FROM part WHERE dt = DATE '2024-01-02';

SELECT count(*) FROM part WHERE hr = 12;

SELECT count(*) FROM part WHERE hr = '12';

SELECT count(*) FROM part WHERE hr >= 12;

SELECT count(*) FROM part WHERE hr IN (0, 23);

SELECT count(*) FROM part WHERE dt > '2024-01-02';

SELECT count(*) FROM part WHERE dt BETWEEN '2024-01-02' AND '2024-01-04';

SELECT count(*) FROM part WHERE dt < '2024-01-01';

SELECT count(*) FROM part WHERE dt = '2024-01-01' OR hr = 6;

SELECT count(*) FROM part WHERE dt = '2024-01-03' AND hr = 6;

SELECT count(*) FROM part WHERE dt = '2024-01-02' AND hr = 0;

SELECT count(*) FROM part WHERE dt = '2024-01-05' AND hr = 23;

SELECT * FROM part WHERE dt = '2024-01-03' AND hr = 6;

SELECT count(*) FROM part WHERE dt = '2030-01-01';

SELECT count(*) FROM part WHERE hr = 7;

SELECT dt, hr, count(*) FROM part GROUP BY dt, hr;

SELECT dt, count(*), sum(amount) FROM part GROUP BY dt;

SELECT hr, count(*), avg(score) FROM part GROUP BY hr;

SELECT DISTINCT dt FROM part;

SELECT DISTINCT dt, hr FROM part ORDER BY dt DESC NULLS LAST, hr DESC NULLS LAST;

SELECT max(dt), min(dt), max(hr), min(hr) FROM part;

SELECT count(*) FROM part WHERE dt = '2024-01-01' AND uid < 3;

SELECT id, uid, amount FROM part WHERE dt = '2024-01-02' AND hr = 12;

SELECT id, amount FROM part WHERE hr = 12 AND amount > 4900;

SELECT id FROM part WHERE dt >= '2024-01-03' AND tag = 'api' AND ok;

SELECT count(*) FROM part WHERE (dt = '2024-01-01' AND hr = 0) OR (dt = '2024-01-05' AND hr = 0);

SELECT count(*) FROM part WHERE dt <> '2024-01-01' AND hr <> 0;

SELECT count(*) FROM part WHERE hr + 1 = 13;

SELECT count(*) FROM part WHERE dt IS NULL OR hr IS NULL;

SELECT count(*) FROM part WHERE NOT (hr = 0);

SELECT count(*) FROM part WHERE hr BETWEEN 1 AND 20 AND dt IN ('2024-01-01', '2024-01-03');

SELECT dt, hr, max(id) FROM part WHERE hr > 0 GROUP BY dt, hr HAVING count(*) > 100;

SELECT id, dt, hr FROM part ORDER BY dt DESC, hr DESC, id DESC LIMIT 100;

SELECT id, dt, hr FROM part WHERE dt = '2024-01-01' ORDER BY hr NULLS FIRST, id LIMIT 30;

SELECT CAST(dt AS STRING), hr * 2 FROM part WHERE id % 500 = 0;

SELECT tag, count(*) FROM part WHERE dt = '2024-01-03' GROUP BY tag;

SELECT count(*) FROM part p JOIN part q ON p.id = q.id AND p.dt = q.dt WHERE p.hr = 0;

SELECT count(*) FROM part WHERE id IN (SELECT id FROM part WHERE hr = 6);

SELECT dt FROM part WHERE hr = 23 UNION SELECT dt FROM part WHERE hr = 0;

SELECT count(*) FROM part WHERE dt = (SELECT max(dt) FROM part);

-- section: format
SELECT id, txt FROM csv_t WHERE txt LIKE '%,%';

SELECT id, txt FROM csv_t WHERE txt LIKE '%"%';

SELECT count(*) FROM csv_t WHERE txt LIKE '%line two%';

SELECT count(*), count(val), sum(val), min(val), max(val) FROM csv_t;

SELECT txt, count(*) FROM csv_t GROUP BY txt;

SELECT id, val FROM csv_t WHERE val IS NULL;

SELECT count(*) FROM json_t WHERE name IS NULL;

SELECT count(*), count(score), count(qty), count(active) FROM json_t;

SELECT active, count(*), sum(qty) FROM json_t GROUP BY active;

SELECT id, score FROM json_t WHERE score > 60;

SELECT id, name, score, qty, active FROM json_t WHERE id <= 300;

SELECT j.id, c.txt FROM json_t j JOIN csv_t c ON j.id = c.id WHERE j.active AND c.val > 4000;

-- section: empty
SELECT * FROM empty_t WHERE k > 0;

SELECT k, count(*) FROM empty_t GROUP BY k;

SELECT count(*), count(k), sum(k), min(label), max(weight), avg(weight) FROM empty_t;

SELECT count(*) FROM empty_t HAVING count(*) = 0;

SELECT DISTINCT label FROM empty_t;

SELECT * FROM empty_t ORDER BY k NULLS FIRST;

SELECT * FROM empty_t a JOIN empty_t b ON a.k = b.k;

SELECT count(*) FROM empty_t a FULL JOIN dim d ON a.k = d.k;

SELECT count(*) FROM dim d LEFT JOIN empty_t a ON a.k = d.k WHERE a.k IS NULL;

SELECT k FROM empty_t UNION SELECT k FROM empty_t;

SELECT count(*) FROM part WHERE dt = '2024-01-02' AND hr = 0 AND id > 0;

SELECT dt, hr, count(*) FROM part WHERE dt = '2024-01-05' GROUP BY dt, hr;

SELECT id FROM t_all WHERE id > 12000;

SELECT count(*), sum(num) FROM t_all WHERE id > 12000;

SELECT cat, count(*) FROM t_all WHERE id > 12000 GROUP BY cat;

-- section: edge
SELECT num, count(*), sum(dbl) FROM t_all GROUP BY num;

SELECT name, cat, count(*), max(id) FROM t_all GROUP BY name, cat;

SELECT amt, count(*) FROM t_all GROUP BY amt;

SELECT ts, min(id) FROM t_all GROUP BY ts;

SELECT id, cat FROM t_all ORDER BY cat NULLS FIRST, id;

SELECT id, name, num FROM t_all ORDER BY name DESC NULLS FIRST, num NULLS LAST, id;

SELECT id FROM t_all ORDER BY id LIMIT 5 OFFSET 20000;

SELECT id FROM t_all ORDER BY id DESC LIMIT 2049;

SELECT id, num FROM t_all ORDER BY num DESC NULLS LAST, id LIMIT 2047;

SELECT count(*) FROM t_all a FULL JOIN t_all b ON a.num = b.num AND a.cat = 'a' AND b.cat = 'b';

SELECT count(*), count(a.id), count(b.id) FROM (SELECT * FROM t_all WHERE cat = 'a') a FULL JOIN (SELECT * FROM t_all WHERE cat = 'b') b ON a.small = b.small AND a.flag = b.flag;

SELECT id FROM t_all WHERE num = dbl;

SELECT id FROM t_all WHERE amt = num;

SELECT count(*) FROM t_all WHERE CAST(tiny AS INT) = small;

SELECT count(*) FROM t_all WHERE big > amt;

SELECT count(*) FROM t_all WHERE amt > prec;

SELECT count(*) FROM t_all WHERE day = ts;

SELECT count(*) FROM t_all WHERE CAST(day AS TIMESTAMP) <= ts;

SELECT count(*) FROM t_all WHERE num IN (1.0, 2.5, -3);

SELECT count(*) FROM t_all WHERE dbl IN (0, 1, 2, -1);

SELECT count(*) FROM t_all WHERE amt IN (SELECT price FROM dim);

SELECT count(*) FROM t_all WHERE flag = (num > 0);

SELECT count(*) FROM t_all WHERE name BETWEEN 'b' AND 'k';

SELECT count(*) FROM t_all WHERE cat BETWEEN 'a' AND 'c' AND name NOT BETWEEN 'a' AND 'z';

SELECT t.id, d.k FROM t_all t JOIN dim d ON t.num = d.weight;

SELECT count(*) FROM t_all t JOIN dim d ON t.amt = d.price;

SELECT count(*) FROM t_all t JOIN dim d ON t.num = d.k AND t.small = d.k;

SELECT a.k, b.k, count(*) FROM dim a JOIN dim b ON a.k <=> b.k GROUP BY a.k, b.k;

SELECT count(*) FROM t_all a LEFT JOIN dim d ON a.small <=> d.k;

SELECT count(*) FROM t_all WHERE id IN (1, 2, 3, 5, 8, 13, 21, 34, 55, 89, 144, 233, 377, 610, 987, 1597, 2584, 4181, 6765, 10946);

SELECT id, num FROM t_all WHERE id < 20 AND (num > 0 OR num IS NULL) AND NOT (flag AND num > 100);

SELECT sum(num), sum(big), count(*) FROM t_all WHERE id % 2048 = 0 OR id % 2048 = 2047;

SELECT cat, count(*) FROM (SELECT cat FROM t_all ORDER BY id LIMIT 5000) x GROUP BY cat;

SELECT count(*) FROM (SELECT id FROM t_all LIMIT 3000) x;

SELECT cat, n FROM (SELECT cat, count(*) AS n FROM t_all GROUP BY cat ORDER BY n DESC, cat NULLS FIRST LIMIT 3) x;

SELECT count(*), sum(c) FROM (SELECT small, count(*) AS c FROM t_all GROUP BY small) x;

SELECT x.cat, x.m, t.id FROM (SELECT cat, max(num) AS m FROM t_all GROUP BY cat) x JOIN t_all t ON t.cat = x.cat AND t.num = x.m;

SELECT count(*) FROM t_all WHERE (SELECT count(*) FROM empty_t) = 0;

SELECT 1 FROM t_all WHERE id = 1;

SELECT 'const', count(*) FROM t_all GROUP BY 'const';
-- duckdb: SELECT 'const', count(*) FROM t_all

SELECT NULL, count(*) FROM t_all;
-- duckdb: SELECT CAST(NULL AS INT), count(*) FROM t_all

SELECT * FROM dim a JOIN small b ON a.k = b.sid;

SELECT a.*, b.sid FROM dim a LEFT JOIN small b ON a.k = b.sid;

SELECT b.*, a.label FROM dim a RIGHT JOIN small b ON a.k = b.sid;

SELECT * FROM (SELECT k, label FROM dim WHERE k < 10) x JOIN (SELECT sid, sname FROM small) y ON x.k = y.sid;

SELECT num FROM t_all WHERE id < 100 UNION ALL SELECT dbl FROM t_all WHERE id < 100;

SELECT amt FROM t_all WHERE id < 100 UNION ALL SELECT dbl FROM t_all WHERE id < 100;

SELECT tiny FROM t_all WHERE id < 100 UNION SELECT small FROM t_all WHERE id < 100;

SELECT id FROM t_all WHERE NOT NOT flag AND id < 1000;

SELECT id FROM t_all WHERE !flag AND id < 1000;
-- duckdb: SELECT id FROM t_all WHERE NOT flag AND id < 1000

SELECT id, -(-num), - -big FROM t_all WHERE id <= 300;
-- duckdb: SELECT id, -(-num), -(-big) FROM t_all WHERE id <= 300

SELECT id FROM t_all WHERE ((((num > 0)) AND ((dbl < 0) OR (amt > 0)))) AND id < 2000;

SELECT count(*) FROM t_all WHERE name IN ('alpha', 'Bravo', 'charlie', 'delta', 'Echo', 'x_y', 'a%b', '', 'nope');

SELECT count(*) FROM t_all WHERE ts = '2023-12-11 21:26:41';

SELECT count(*) FROM t_all WHERE name LIKE '%a%o%';

# multi-byte pieces in haystacks of every length: 16 positions at a time,
# then the positions left one at a time
SELECT id FROM t_all WHERE name LIKE '%an%' AND id < 4000 ORDER BY id;

SELECT count(*) FROM t_all WHERE name LIKE '%ar%ar%';

SELECT id FROM t_all WHERE name IS NOT NULL AND concat(name, '|', name, '|', name) LIKE '%o|a%' ORDER BY id;

SELECT count(*) FROM t_all WHERE name IS NOT NULL AND concat(name, '|', cat, '|', name, '|', name) LIKE '%|a|%a%';

SELECT count(*) FROM t_all WHERE name LIKE 'O''%';
-- duckdb: SELECT count(*) FROM t_all WHERE name LIKE 'O%'

SELECT id, name FROM t_all WHERE name = 'O\'Brien' AND id < 3000;
-- duckdb: SELECT id, name FROM t_all WHERE name = 'O''Brien' AND id < 3000

SELECT cat, count(DISTINCT num), count(DISTINCT dbl), count(DISTINCT amt), count(DISTINCT ts) FROM t_all GROUP BY cat;

SELECT flag, min(amt), max(prec), sum(DISTINCT amt) FROM t_all GROUP BY flag;

-- section: in_empty_subquery
# NULL [NOT] IN (empty subquery) is FALSE / TRUE
SELECT count(*) FROM t_all WHERE num NOT IN (SELECT k FROM empty_t);

SELECT id, num IN (SELECT k FROM empty_t), num NOT IN (SELECT k FROM empty_t) FROM t_all WHERE id <= 200;

-- section: window
# rows not grouped by the partition key: one sort over partition and order
# keys; the first order key of each type goes through a sort prefix
SELECT id, cat, rank() OVER (PARTITION BY cat ORDER BY dbl DESC NULLS LAST, id) AS r FROM t_all ORDER BY id;

SELECT id, row_number() OVER (PARTITION BY small ORDER BY amt NULLS FIRST, id) AS r FROM t_all ORDER BY id;

SELECT id, dense_rank() OVER (PARTITION BY flag ORDER BY name DESC NULLS FIRST) AS r FROM t_all ORDER BY id;

SELECT id, rank() OVER (ORDER BY day NULLS LAST) AS r FROM t_all ORDER BY id;

SELECT id, rank() OVER (PARTITION BY cat ORDER BY ts DESC NULLS FIRST) AS r FROM t_all ORDER BY id;

SELECT id, rank() OVER (PARTITION BY tiny ORDER BY big NULLS LAST) AS r FROM t_all ORDER BY id;

SELECT id, rank() OVER (PARTITION BY cat ORDER BY flag NULLS FIRST, prec DESC NULLS LAST) AS r FROM t_all ORDER BY id;

SELECT id, sum(num) OVER (PARTITION BY cat ORDER BY day NULLS FIRST) AS s FROM t_all ORDER BY id;

SELECT id, count(*) OVER (PARTITION BY small ORDER BY name NULLS LAST) AS c FROM t_all ORDER BY id;

# a partitioned table scanned in partition order: rows come grouped by the
# partition key, and each group is sorted alone
SELECT id, dt, rank() OVER (PARTITION BY dt ORDER BY amount DESC NULLS LAST, id) AS r FROM part ORDER BY id;

SELECT id, row_number() OVER (PARTITION BY dt, hr ORDER BY score NULLS FIRST, id) AS r FROM part ORDER BY id;

SELECT id, dense_rank() OVER (PARTITION BY dt ORDER BY tag NULLS LAST) AS r FROM part ORDER BY id;

SELECT dt, id, r FROM (SELECT dt, id, rank() OVER (PARTITION BY dt ORDER BY amount DESC NULLS LAST, id) AS r FROM part) x WHERE r <= 3 ORDER BY dt, r;

-- section: hive_funcs
# issue 20's functions where DuckDB has the same one with the same semantics
SELECT id, hex(big), bin(big), hex(num) FROM t_all WHERE id <= 3000;
-- duckdb: SELECT id, hex(big), bin(big), hex(CAST(num AS BIGINT)) FROM t_all WHERE id <= 3000

SELECT id, translate(name, 'ae%', 'xy'), translate(cat, 'abc', 'ABC') FROM t_all;

SELECT id, octet_length(name), char_length(name), character_length(cat) FROM t_all;
-- duckdb: SELECT id, strlen(name), length(name), length(cat) FROM t_all

# DuckDB counts bytes, Hive characters: ASCII names only
SELECT id, levenshtein(cat, 'abc'), levenshtein(cat, name) FROM t_all WHERE id <= 4000 AND octet_length(name) = char_length(name);
-- duckdb: SELECT id, levenshtein(cat, 'abc'), levenshtein(cat, name) FROM t_all WHERE id <= 4000 AND strlen(name) = length(name)

SELECT id, sha1(name), base64(CAST(name AS BINARY)) FROM t_all WHERE id <= 3000;
-- duckdb: SELECT id, sha1(name), to_base64(encode(name)) FROM t_all WHERE id <= 3000

SELECT id, sin(dbl), cos(dbl), tan(dbl), atan(dbl), cbrt(dbl), degrees(dbl), radians(dbl) FROM t_all;
-- abs_tol: 1e-9

SELECT id, asin(dbl / 1e13), acos(dbl / 1e13), pi() * num FROM t_all;
-- abs_tol: 1e-9
-- duckdb: SELECT id, asin(dbl / 1e13), acos(dbl / 1e13), pi() * num FROM t_all

# DuckDB refuses to shift a negative number left
SELECT id, shiftleft(CAST(abs(small) AS INT), 3), shiftright(num, 2), shiftright(big, 5) FROM t_all;
-- duckdb: SELECT id, CAST(abs(small) AS INT) << 3, num >> 2, big >> 5 FROM t_all

SELECT id, factorial(CAST(id % 21 AS INT)) FROM t_all WHERE id <= 1000;
-- duckdb: SELECT id, CAST(factorial(CAST(id % 21 AS INT)) AS BIGINT) FROM t_all WHERE id <= 1000

SELECT id, chr(65 + id % 26), isnull(name), isnotnull(cat) FROM t_all;
-- duckdb: SELECT id, chr(CAST(65 + id % 26 AS INT)), name IS NULL, cat IS NOT NULL FROM t_all

SELECT id, printf('%d|%5d|%-6s|%s', num, small, cat, name) FROM t_all WHERE num IS NOT NULL AND small IS NOT NULL AND cat IS NOT NULL AND name IS NOT NULL;

SELECT id, get_json_object(concat('{"n":', id, ',"a":[', num, ',', big, ']}'), '$.a[1]') FROM t_all WHERE num IS NOT NULL AND big IS NOT NULL;
-- duckdb: SELECT id, json_extract_string(concat('{"n":', id, ',"a":[', num, ',', big, ']}'), '$.a[1]') FROM t_all WHERE num IS NOT NULL AND big IS NOT NULL

SELECT cat, concat_ws('-', sort_array(collect_set(CAST(tiny AS STRING)))) FROM t_all WHERE tiny BETWEEN 0 AND 9 GROUP BY cat;
-- duckdb: SELECT cat, array_to_string(list_sort(list_distinct(list(CAST(tiny AS VARCHAR)))), '-') FROM t_all WHERE tiny BETWEEN 0 AND 9 GROUP BY cat

# the two-argument statistics (Hive's regr_*(y, x) order, as DuckDB's);
# groups of hundreds of rows, so no variance is 0 and covar_samp never sees
# a single pair (Hive says 0 there, DuckDB NULL)
SELECT cat, corr(dbl, num), covar_pop(dbl, num), covar_samp(num, small), regr_count(dbl, num) FROM t_all GROUP BY cat;
-- abs_tol: 1e-6

SELECT cat, regr_sxx(dbl, num), regr_syy(dbl, num), regr_sxy(dbl, num), regr_avgx(dbl, num), regr_avgy(dbl, num) FROM t_all GROUP BY cat;
-- abs_tol: 1e-3

SELECT cat, regr_slope(num, small), regr_intercept(num, small), regr_r2(num, small) FROM t_all GROUP BY cat;
-- abs_tol: 1e-6

SELECT corr(tiny, small), regr_avgx(num, amt), regr_count(amt, tiny), covar_pop(amt, prec) FROM t_all;
-- abs_tol: 1e-6

SELECT corr(num, dbl), covar_pop(num, dbl), regr_count(num, dbl), regr_slope(num, dbl) FROM empty_t, t_all WHERE t_all.id < 0;

# Hive 4's array functions next to DuckDB's list functions: order-free answers only (collect_list's order is the engine's); DuckDB's list_position is NULL where Hive's is 0
SELECT cat, array_min(collect_list(num)), array_max(collect_list(num)), array_min(collect_list(name)), array_max(collect_list(day)) FROM t_all GROUP BY cat;
-- duckdb: SELECT cat, list_min(list(num)), list_max(list(num)), list_min(list(name)), list_max(list(day)) FROM t_all GROUP BY cat

SELECT cat, array_join(sort_array(array_distinct(collect_list(tiny))), ','), size(array_distinct(collect_list(small))) FROM t_all GROUP BY cat;
-- duckdb: SELECT cat, array_to_string(list_sort(list_distinct(list(tiny))), ','), len(list_distinct(list(small))) FROM t_all GROUP BY cat

SELECT cat, array_join(sort_array(array_intersect(collect_list(tiny), collect_list(CAST(small AS TINYINT)))), ','), array_join(sort_array(array_except(collect_list(tiny), collect_list(CAST(small AS TINYINT)))), ','), size(array_union(collect_list(tiny), collect_list(CAST(small AS TINYINT)))) FROM t_all WHERE small BETWEEN -128 AND 127 GROUP BY cat;
-- duckdb: SELECT cat, array_to_string(list_sort(list_intersect(list(tiny), list(CAST(small AS TINYINT)))), ','), array_to_string(list_sort(list_filter(list_distinct(list(tiny)), x -> NOT list_contains(list(CAST(small AS TINYINT)), x))), ','), len(list_distinct(list_concat(list(tiny), list(CAST(small AS TINYINT))))) FROM t_all WHERE small BETWEEN -128 AND 127 GROUP BY cat

SELECT id, array_position(array(1, 5, 7, 5), num % 8), array_join(array(name, cat), '/') FROM t_all WHERE id <= 3000 AND name IS NOT NULL AND cat IS NOT NULL AND num IS NOT NULL;
-- duckdb: SELECT id, coalesce(list_position([1, 5, 7, 5], num % 8), 0), array_to_string([name, cat], '/') FROM t_all WHERE id <= 3000 AND name IS NOT NULL AND cat IS NOT NULL AND num IS NOT NULL

-- section: bitwise
SELECT id, num & 255, num | 1, ~num, num & -num FROM t_all WHERE id <= 3000;

SELECT id, big & num, big | 7, ~big, big & 1099511627775 FROM t_all WHERE id <= 3000;

SELECT id, num ^ 12345, big ^ num FROM t_all WHERE id <= 3000;
-- duckdb: SELECT id, xor(num, 12345), xor(big, num) FROM t_all WHERE id <= 3000

SELECT id, CAST(tiny AS INT) & CAST(small AS INT), CAST(small AS INT) | num FROM t_all WHERE id <= 3000;

SELECT count(*) FROM t_all WHERE num & 3 = 1 AND big | 1 > 0;

SELECT id, is_not_distinct_from(num, CAST(small AS INT)), is_not_distinct_from(name, cat) FROM t_all WHERE id <= 3000;
-- duckdb: SELECT id, num IS NOT DISTINCT FROM CAST(small AS INT), name IS NOT DISTINCT FROM cat FROM t_all WHERE id <= 3000
