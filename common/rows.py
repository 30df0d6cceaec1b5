"""The few statements every hand action runs, in SQL written once per model.

Django compiles each ORM query from scratch: on the 2-core test machine about 2 ms of CPU for
the locked read of a table and 1–1.5 ms for each save or create, and one action ran five of
them (docs/benchmarks.md, "Live play"). `RowSql` builds the statements of one model once, from
the model's own metadata (a migration that adds a field changes them too), and converts values
with the fields' own methods both ways — what the ORM would send and read, without the
compiling. Everything else keeps using the ORM.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any, Generic, TypeVar

from django.db import DataError, connections
from django.db.models import Model

from common import caches
from common.row_values import db_values

M = TypeVar("M", bound=Model)


class RowSql(Generic[M]):
    """Locked read, insert, partial update and delete of single rows of `model`, and simple reads."""

    OPERATORS = frozenset({"=", "<", "<=", ">", ">="})  # the comparisons `select` writes

    def __init__(self, model: type[M]) -> None:
        self.model = model
        meta = model._meta
        self.fields = list(meta.concrete_fields)
        self.attnames = [f.attname for f in self.fields]
        self.by_attname = {f.attname: f for f in self.fields}
        self.pk = meta.pk
        self.table = meta.db_table
        self._converters: dict[str, dict[int, Any]] = {}  # per database alias
        self._statements: dict[tuple[Any, ...], str] = {}  # (alias, kind, fields) -> SQL text

    def _sql(self, key: tuple[Any, ...], build: Any) -> str:
        """The statement for `key`, built once (quoting some thirty names each call was measurable)."""
        sql = self._statements.get(key)
        if sql is None:
            sql = self._statements[key] = build()
        return sql

    def lock(self, pk: Any, using: str = "default") -> M | None:
        """`SELECT … FOR UPDATE` of one row (None when there is none), as a model instance."""
        connection = connections[using]

        def build() -> str:
            q = connection.ops.quote_name
            columns = ", ".join(q(f.column) for f in self.fields)
            lock = " FOR UPDATE" if connection.features.has_select_for_update else ""
            return f"SELECT {columns} FROM {q(self.table)} WHERE {q(self.pk.column)} = %s{lock}"

        sql = self._sql((using, "lock"), build)
        with connection.cursor() as cursor:
            cursor.execute(sql, [pk])
            row = cursor.fetchone()
        if row is None:
            return None
        values = self._convert(row, using)
        return self.model.from_db(using, self.attnames, values)

    def find(self, attname: str, value: Any, using: str = "default") -> M | None:
        """The row whose `attname` equals `value` (a key or a unique field), as a model instance;
        None when there is none."""
        return self.first([(attname, "=", value)], using=using)

    def first(
        self,
        where: list[tuple[str, str, Any]],
        order: tuple[str, str] | None = None,
        using: str = "default",
    ) -> M | None:
        """The first row matching every condition (see `select`); None when none matches."""
        rows = self.select(where, order, 1, using)
        return rows[0] if rows else None

    def select(
        self,
        where: list[tuple[str, str, Any]],
        order: tuple[str, str] | None = None,
        limit: int | None = None,
        using: str = "default",
    ) -> list[M]:
        """The rows matching every (attname, operator, value) condition, in `order`
        ((attname, "ASC" or "DESC")), at most `limit` of them, as model instances."""
        connection = connections[using]
        shape = tuple((name, op) for name, op, _value in where)
        bad_order = order is not None and order[1] not in ("ASC", "DESC")
        if bad_order or any(op not in self.OPERATORS for _name, op in shape):
            raise ValueError(f"unsupported condition or order: {shape} {order}")

        def build() -> str:
            q = connection.ops.quote_name
            columns = ", ".join(q(f.column) for f in self.fields)
            conditions = " AND ".join(f"{q(self.by_attname[name].column)} {op} %s" for name, op in shape)
            ordering = f" ORDER BY {q(self.by_attname[order[0]].column)} {order[1]}" if order else ""
            limited = f" LIMIT {int(limit)}" if limit is not None else ""
            return f"SELECT {columns} FROM {q(self.table)} WHERE {conditions}{ordering}{limited}"

        sql = self._sql((using, "select", shape, order, limit), build)
        params = [self.by_attname[name].get_db_prep_value(value, connection) for name, _op, value in where]
        with connection.cursor() as cursor:
            cursor.execute(sql, params)
            rows = cursor.fetchall()
        return [self.model.from_db(using, self.attnames, self._convert(row, using)) for row in rows]

    def column(self, pks: list[Any], attname: str, using: str = "default") -> dict[Any, Any]:
        """pk -> the raw value of one plain column (an integer, say: no conversion) of the given
        rows; the rows that do not exist are left out."""
        if not pks:
            return {}
        connection = connections[using]
        q = connection.ops.quote_name
        marks = ", ".join(["%s"] * len(pks))
        column = q(self.by_attname[attname].column)
        pk = q(self.pk.column)
        sql = f"SELECT {pk}, {column} FROM {q(self.table)} WHERE {pk} IN ({marks})"
        with connection.cursor() as cursor:
            cursor.execute(sql, list(pks))
            return dict(cursor.fetchall())

    def update(self, obj: M, attnames: list[str] | tuple[str, ...], using: str = "default") -> int:
        """`UPDATE … SET` the given fields of `obj`'s row to `obj`'s values; how many rows (0: gone)."""
        if not attnames:
            return 0
        connection = connections[using]
        fields = [self.by_attname[name] for name in attnames]
        params = [f.get_db_prep_save(getattr(obj, f.attname), connection) for f in fields]

        def build() -> str:
            q = connection.ops.quote_name
            assignments = ", ".join(f"{q(f.column)} = %s" for f in fields)
            return f"UPDATE {q(self.table)} SET {assignments} WHERE {q(self.pk.column)} = %s"

        sql = self._sql((using, "update", tuple(attnames)), build)
        with connection.cursor() as cursor:
            cursor.execute(sql, [*params, obj.pk])
            return cursor.rowcount

    def delete(self, pk: Any, using: str = "default") -> bool:
        """`DELETE` the row with this key; whether there was one."""
        connection = connections[using]

        def build() -> str:
            q = connection.ops.quote_name
            return f"DELETE FROM {q(self.table)} WHERE {q(self.pk.column)} = %s"

        with connection.cursor() as cursor:
            cursor.execute(self._sql((using, "delete"), build), [pk])
            return cursor.rowcount > 0

    def add(self, obj: M, attname: str, delta: int, using: str = "default") -> int:
        """Add `delta` to an integer field of `obj`'s row in the database (never below 0), in one
        atomic statement, and return the new value (the database's, whatever `obj` held)."""
        connection = connections[using]
        q = connection.ops.quote_name
        column = q(self.by_attname[attname].column)
        value = f"CASE WHEN {column} + %s < 0 THEN 0 ELSE {column} + %s END"
        where = f"WHERE {q(self.pk.column)} = %s"
        sql = f"UPDATE {q(self.table)} SET {column} = {value} {where} RETURNING {column}"
        with connection.cursor() as cursor:
            cursor.execute(sql, [delta, delta, obj.pk])
            row = cursor.fetchone()
        assert row is not None
        return int(row[0])

    def insert(self, obj: M, using: str = "default") -> M:
        """`INSERT` `obj` (auto fields such as `auto_now_add` filled as the ORM would); sets its pk."""
        connection = connections[using]
        fields = [f for f in self.fields if f is not self.pk]
        params = [f.get_db_prep_save(f.pre_save(obj, True), connection) for f in fields]

        def build() -> str:
            q = connection.ops.quote_name
            columns = ", ".join(q(f.column) for f in fields)
            marks = ", ".join(["%s"] * len(fields))
            return f"INSERT INTO {q(self.table)} ({columns}) VALUES ({marks}) RETURNING {q(self.pk.column)}"

        sql = self._sql((using, "insert"), build)
        with connection.cursor() as cursor:
            cursor.execute(sql, params)
            row = cursor.fetchone()
        assert row is not None
        obj.pk = row[0]
        obj._state.adding = False
        obj._state.db = using
        return obj

    # --- parts of one larger statement (`in_one_statement`) --------------------------------

    def insert_part(self, obj: M, using: str = "default") -> tuple[str, list[Any]]:
        """`INSERT` of `obj` as (SQL, parameters), returning nothing: nobody reads its id."""
        connection = connections[using]
        fields = [f for f in self.fields if f is not self.pk]
        params = db_values(self.model, connection, fields, [f.pre_save(obj, True) for f in fields])

        def build() -> str:
            q = connection.ops.quote_name
            columns = ", ".join(q(f.column) for f in fields)
            return f"INSERT INTO {q(self.table)} ({columns}) VALUES ({', '.join(['%s'] * len(fields))})"

        return self._sql((using, "insert_part"), build), params

    def update_part(self, obj: M, attnames: list[str], using: str = "default") -> tuple[str, list[Any]]:
        """`UPDATE … SET` of these fields of `obj`'s row as (SQL, parameters)."""
        return self.set_part(obj.pk, {name: getattr(obj, name) for name in attnames}, using)

    def set_part(self, pk: Any, values: dict[str, Any], using: str = "default") -> tuple[str, list[Any]]:
        """`update_part` of the row with this key, from its new values (attname -> value): no model
        instance made for it (a hand's count, once per hand action: its `__init__` cost more than
        the statement's part)."""
        connection = connections[using]
        attnames = tuple(values)
        fields = [self.by_attname[name] for name in attnames]
        params = db_values(self.model, connection, fields, list(values.values()))

        def build() -> str:
            q = connection.ops.quote_name
            assignments = ", ".join(f"{q(f.column)} = %s" for f in fields)
            return f"UPDATE {q(self.table)} SET {assignments} WHERE {q(self.pk.column)} = %s"

        return self._sql((using, "update", attnames), build), [*params, pk]

    def update_if_part(
        self,
        obj: M,
        attnames: list[str],
        expected: dict[str, Any],
        returning: tuple[str, ...] = (),
        using: str = "default",
    ) -> tuple[str, list[Any]]:
        """`UPDATE … SET` of these fields of `obj`'s row, only if its fields still hold the
        `expected` values (attname -> value), `RETURNING` its key and the `returning` fields as
        the row now holds them: a compare-and-set."""
        connection = connections[using]
        fields = [self.by_attname[name] for name in attnames]
        checked = [self.by_attname[name] for name in expected]
        returned = [self.pk, *(self.by_attname[name] for name in returning)]
        params = db_values(self.model, connection, fields, [getattr(obj, f.attname) for f in fields])
        params += [obj.pk, *db_values(self.model, connection, checked, list(expected.values()))]

        def build() -> str:
            q = connection.ops.quote_name
            assignments = ", ".join(f"{q(f.column)} = %s" for f in fields)
            where = " AND ".join([f"{q(self.pk.column)} = %s", *(f"{q(f.column)} = %s" for f in checked)])
            back = ", ".join(q(f.column) for f in returned)
            return f"UPDATE {q(self.table)} SET {assignments} WHERE {where} RETURNING {back}"

        key = (using, "update_if", tuple(attnames), tuple(expected), returning)
        return self._sql(key, build), params

    def upsert_part(self, obj: M, using: str = "default") -> tuple[str, list[Any]]:
        """`INSERT` of `obj` with its key, replacing every other field of a row with that key."""
        connection = connections[using]
        params = db_values(
            self.model, connection, self.fields, [getattr(obj, f.attname) for f in self.fields]
        )

        def build() -> str:
            q = connection.ops.quote_name
            columns = ", ".join(q(f.column) for f in self.fields)
            marks = ", ".join(["%s"] * len(self.fields))
            rest = ", ".join(
                f"{q(f.column)} = EXCLUDED.{q(f.column)}" for f in self.fields if f is not self.pk
            )
            conflict = f"ON CONFLICT ({q(self.pk.column)}) DO UPDATE SET {rest}"
            return f"INSERT INTO {q(self.table)} ({columns}) VALUES ({marks}) {conflict}"

        return self._sql((using, "upsert"), build), params

    def _convert(self, row: tuple[Any, ...], using: str) -> list[Any]:
        converters = self._converters.get(using)
        if converters is None:
            converters = self._converters[using] = self._build_converters(using)
        values = list(row)
        for index, (functions, column) in converters.items():
            for convert in functions:
                values[index] = convert(values[index], column, connections[using])
        return values

    def _build_converters(self, using: str) -> dict[int, Any]:
        """The ORM's own converters for these columns (JSON text → objects and the like)."""
        query = self.model._default_manager.none().query
        compiler = query.get_compiler(using=using)
        columns = [f.get_col(self.table) for f in self.fields]
        return compiler.get_converters(columns)


def in_one_statement(parts: list[tuple[str, list[Any]]], using: str = "default") -> None:
    """Run several writes (`RowSql.*_part`) as one PostgreSQL statement: all but the last as
    data-modifying `WITH`s. One parse and one round trip instead of one per write; the writes
    see the same snapshot, so none of them may depend on another's effect."""
    *first, (last, params) = parts
    ctes = ", ".join(f"w{i} AS ({sql})" for i, (sql, _params) in enumerate(first))
    values = [value for _sql, part in first for value in part]
    with connections[using].cursor() as cursor:
        cursor.execute(f"WITH {ctes} {last}" if first else last, [*values, *params])


def in_one_statement_if_first(
    parts: list[tuple[str, list[Any]]], returned: tuple[str, ...] = (), using: str = "default"
) -> tuple[Any, ...] | None:
    """`in_one_statement`, all or nothing on the first write: when it changes no row (a
    compare-and-set, `RowSql.update_if_part`, that found the row changed) the main query
    divides by zero, the statement fails and, being one statement, writes nothing: None. When
    everything was written, the values of the `returned` columns the first write returned (its
    `returning` fields). (PostgreSQL runs the `WITH` the main query reads first, the others
    after it: they never run then.) One round trip, and with autocommit one transaction."""
    return run_if_first(*statement_if_first(parts, returned, using), using=using)


def statement_if_first(
    parts: list[tuple[str, list[Any]]], returned: tuple[str, ...] = (), using: str = "default"
) -> tuple[str, list[Any]]:
    """The statement of `in_one_statement_if_first` and its values, to be sent by `run_if_first`
    or from an event loop (common.loop_db)."""
    values = [value for _sql, part in parts for value in part]
    key = (tuple(sql for sql, _params in parts), returned, using)
    statement = _IF_FIRST.get(key)
    if statement is None:  # (the parts' texts are built once per shape: so is the whole)
        quote = connections[using].ops.quote_name
        statement = caches.put(_IF_FIRST, key, _if_first_statement(parts, returned, quote), _IF_FIRST_LIMIT)
    return statement, values


def run_if_first(statement: str, values: list[Any], using: str = "default") -> tuple[Any, ...] | None:
    connection = connections[using]
    prepared = getattr(connection, "prepared_cursor", None)  # (mahjong_site.postgres: parsed once)
    try:
        with prepared() if prepared is not None else connection.cursor() as cursor:
            cursor.execute(statement, values)
            row = cursor.fetchone()
    except DataError as error:
        if not refused_if_first(error.__cause__):
            raise
        return None
    return tuple(row[1:])


def refused_if_first(error: BaseException | None) -> bool:
    """Whether a statement of `statement_if_first` failed because its first write changed no row."""
    return getattr(error, "sqlstate", None) == DIVISION_BY_ZERO


_IF_FIRST: dict[tuple[tuple[str, ...], tuple[str, ...], str], str] = caches.registered({})
_IF_FIRST_LIMIT = 2000  # (a few dozen shapes in play: which fields a hand action changes)


def _if_first_statement(
    parts: list[tuple[str, list[Any]]], returned: tuple[str, ...], q: Callable[[str], str]
) -> str:
    ctes = ", ".join(f"w{i} AS ({sql})" for i, (sql, _params) in enumerate(parts))
    # (an aggregate query has one row even when w0 has none; max of its one row is its value)
    columns = "".join(f", max({q(column)})" for column in returned)
    return f"WITH {ctes} SELECT 1 / count(*){columns} FROM w0"


DIVISION_BY_ZERO = "22012"  # PostgreSQL's SQLSTATE: the compare-and-set found the row changed
