"""A system's verbs built from the command registry (``domain.registry``): each click command's
arguments, options, types, choices, defaults, completion and help come from its ``Verb`` and
its parameters' kinds (``domain.kinds``), and a small declaration per verb (``Line``) says what
the registry cannot know: which parameters are positional and under what name, an option's
name where it is not the field's, its short name, metavar and help, and the example line.

A verb's help is its ``Verb.help`` (its command's docstring, the text the OpenAPI schema and
Discord show), then the example. What each kind becomes:

- a flag: ``--name``; one whose default is true is switched off by its option (``rest
  --unsafe``); one that may be null or is required: ``--name/--not-name``;
- a whole number (or a ruling's number): ``WHOLE_NUMBER``, within its bounds;
- a choice of fixed values: ``click.Choice``; a choice the rule reads more loosely (a stat's
  first letters, a number): text, the rule's to refuse, completing with its values; a field
  typed as an enum is given the member of the text's value;
- a list: an argument of ``nargs=-1``, or a repeatable option;
- a character, an NPC, a member: text completing with their names.

Every verb narrates (``--say``); a verb whose command rolls (``Verb.rolls``) takes the dice
options (``cli.dice.dice_options``). A verb is built the first time it is looked up
(``GeneratedGroup``): a roll imports its own command's module and no other's.
"""

from __future__ import annotations

import importlib
import typing
from collections.abc import Callable, Iterator, Mapping, MutableMapping
from types import MappingProxyType
from typing import TYPE_CHECKING, Any

import attrs
import click
from attrs import frozen

from cli.context import WholeNumber
from domain.plain import Plain

if TYPE_CHECKING:
    from domain.kinds import Kind
    from domain.registry import Parameter

Shape = Callable[[dict[str, Any]], dict[str, Any]]
NONE: Mapping[str, Any] = MappingProxyType({})
FIELD_S = "the field's own"  # an ``Opt``'s default when it declares none: its field's


@frozen(kw_only=True)
class Opt(Plain):
    """What the CLI says of one option beyond its parameter's kind: the field it gives (by
    default its own name, ``-`` as ``_``; ``""``: none, the verb's ``shape`` reads it, and
    ``kind`` and ``required`` say what it takes), its short name, metavar and help, and a
    default of the CLI's own (``default``; else the field's) and whether help shows it."""

    field: str | None = None
    help: str = ""
    metavar: str | None = None
    short: str = ""
    default: Any = FIELD_S
    show_default: bool = False
    kind: Kind | None = None
    required: bool = False


@frozen(kw_only=True)
class Arg(Plain):
    """An argument that is more than one field's name: the field it gives (``""``: none, the
    verb's ``shape`` reads it, and ``kind`` says what it takes) and a fixed count of values
    (``nargs``; by default a list's any number, else one)."""

    field: str = ""
    kind: Kind | None = None
    nargs: int | None = None


@frozen(kw_only=True)
class Line(Plain):
    """One verb's declaration: its command's class (by name, in its system's ``commands``
    module), its positional parameters in order (the argument's name -> the field, or an
    ``Arg``), its options in the order help lists them (the option's name, without ``--`` ->
    ``Opt``), the fields a ``shape`` makes from the options and arguments of no field (none has
    one of its own), and its example line (or lines). ``optional`` names the arguments that may
    be left out though their field has no default (a list's: none given, an empty list;
    ``roll WHO [QUALITIES]...``)."""

    command: str
    example: str
    arguments: Mapping[str, str | Arg] = NONE
    optional: tuple[str, ...] = ()
    options: Mapping[str, Opt] = NONE
    shaped: tuple[str, ...] = ()
    shape: Shape | None = None


@frozen(kw_only=True)
class Group(Plain):
    """A verb of two words' first word (``item`` of ``item add``): its help and example."""

    help: str
    example: str
    extend: Callable[[click.Group], None] | None = None  # its commands of no verb (reads)


def with_sheets(groups: Mapping[str, Group], package: str, shown: str) -> dict[str, Group]:
    """``groups`` with ``character show`` and ``character list`` added to the character group
    from the system's sheets (``cli.<package>.sheet``), imported when that group is built: a
    roll never imports them."""

    def extend(group: click.Group) -> None:
        from cli.sheets import add_sheet_commands

        add_sheet_commands(group, _sheets(package), shown)

    character = groups["character"]
    return {
        **groups,
        "character": Group(help=character.help, example=character.example, extend=extend),
    }


def sheets_attribute(package: str) -> Callable[[str], Any]:
    """A system package's module ``__getattr__``: its ``SHEETS`` (how a character shows),
    from ``cli.<package>.sheet`` the first time it is asked for (``cli.systems.sheets``)."""

    def attribute(name: str) -> Any:
        if name == "SHEETS":
            return _sheets(package)
        raise AttributeError(name)

    return attribute


def _sheets(package: str) -> Any:
    return importlib.import_module(f"cli.{package}.sheet").SHEETS


def helped(text: str, example: str) -> str:
    """A command's help: ``text``, then its example (kept as written)."""
    lines = "\n".join(f"  {line}" for line in example.splitlines())
    return f"{text}\n\n\b\nExample:\n{lines}"


class Bounded(WholeNumber):
    """A whole number within bounds (either may be None)."""

    def __init__(self, minimum: int | None, maximum: int | None) -> None:
        self.minimum, self.maximum = minimum, maximum

    def convert(
        self, value: object, param: click.Parameter | None, ctx: click.Context | None
    ) -> int:
        number = super().convert(value, param, ctx)
        if (self.minimum is not None and number < self.minimum) or (
            self.maximum is not None and number > self.maximum
        ):
            self.fail(f"{number} is not within {self.minimum}..{self.maximum}", param, ctx)
        return number


def click_type(kind: Kind) -> click.ParamType[Any]:
    """What click reads a value of ``kind`` as (a list's: each item's)."""
    from domain.kinds import Choice, Integer, ListOf, Reference, Refers

    if isinstance(kind, ListOf):
        return click_type(kind.item)
    if isinstance(kind, Reference) and kind.refers is Refers.RULING:
        return Bounded(1, None)
    if isinstance(kind, Integer):
        return Bounded(kind.minimum, kind.maximum)
    if isinstance(kind, Choice) and not kind.reads_more:
        return click.Choice(kind.values)
    return click.STRING


def _argument(
    name: str, parameter: Parameter | None, said: Arg | None = None, optional: bool = False
) -> click.Argument:
    """An argument: its field's (``parameter``), else what ``said`` declares it takes (a
    list's any number of values, else one, required); ``optional``: may be left out."""
    from cli.completion import completer_of
    from domain.kinds import ListOf, Text

    declared = said.kind if said is not None else None
    kind = parameter.kind if parameter is not None else declared or Text()
    listed = isinstance(kind, ListOf)
    given = (
        {}
        if parameter is None or parameter.required or parameter.default is None
        else {"default": parameter.default}
    )
    nargs = said.nargs if said is not None and said.nargs is not None else -1 if listed else 1
    return click.Argument(
        [name],
        type=click_type(kind),
        nargs=nargs,
        required=(parameter.required and not optional) if parameter is not None else not listed,
        shell_complete=completer_of(kind),
        **given,
    )


def _field(said: str | Arg) -> str:
    """The field an argument gives (``""``: none, a shape reads it)."""
    return said if isinstance(said, str) else said.field


def _option(name: str, said: Opt, parameter: Parameter | None) -> click.Option:
    from cli.completion import completer_of
    from domain.kinds import Flag, Text

    kind = parameter.kind if parameter is not None else (said.kind or Text())
    field = said.field or name.replace("-", "_")
    names = [f"--{name}", *([f"-{said.short}"] if said.short else []), field]
    required, default = _required_and_default(said, parameter)
    extra: dict[str, Any] = {} if required or default is None else {"default": default}
    if isinstance(kind, Flag):
        nullable = parameter is not None and (parameter.nullable or parameter.required)
        if nullable:
            names[0] = f"--{name}/--not-{name}"
        extra = _flag(nullable, required, default)
    else:
        extra = _valued(kind, extra)
    return click.Option(
        names,
        required=required,
        metavar=said.metavar,
        show_default=said.show_default,
        help=said.help or None,
        shell_complete=completer_of(kind),
        **extra,
    )


def _required_and_default(said: Opt, parameter: Parameter | None) -> tuple[bool, Any]:
    """Whether the option must be given, and its default (the field's unless declared)."""
    required = parameter.required if parameter is not None else said.required
    default = said.default
    if default is FIELD_S:
        default = None if parameter is None or parameter.required else parameter.default
    return required and said.default is FIELD_S, default


def _flag(nullable: bool, required: bool, default: Any) -> dict[str, Any]:
    """A flag's click settings: ``--x/--not-x`` (neither given: None, or the CLI's default)
    for a nullable or required one, a switch that turns off a field true by default, else a
    plain switch."""
    if nullable:
        return {} if required else {"default": default}
    if default is True:  # the option switches it off
        return {"is_flag": True, "flag_value": False, "default": True}
    return {"is_flag": True}


def _valued(kind: Any, extra: dict[str, Any]) -> dict[str, Any]:
    """An option with a value: its click type, repeatable for a list (a list's default as a
    tuple, none when empty)."""
    from domain.kinds import ListOf

    extra = extra | {"type": click_type(kind), "multiple": isinstance(kind, ListOf)}
    if extra["multiple"] and "default" in extra:
        extra["default"] = tuple(extra["default"]) or None
        if extra["default"] is None:
            del extra["default"]
    return extra


def _params(decorator: Callable[[Any], Any]) -> list[click.Parameter]:
    """The parameters a click decorator adds, in the order help lists them."""

    def holder() -> None: ...

    decorator(holder)
    return list(reversed(holder.__click_params__))  # type: ignore[attr-defined]


def build(name: str, line: Line, module: str) -> click.Command:
    """The click command of verb ``name``, from its command's ``Verb`` and ``line``."""
    from cli import dice
    from cli.context import Context
    from cli.say import say_option
    from domain.registry import verb_for

    command_class = getattr(importlib.import_module(module), line.command)
    verb = verb_for(command_class)
    by_field = {p.name: p for p in verb.parameters}
    params: list[click.Parameter] = [
        _argument(
            cli_name,
            by_field[_field(said)] if _field(said) else None,
            said if isinstance(said, Arg) else None,
            cli_name in line.optional,
        )
        for cli_name, said in line.arguments.items()
    ]
    renamed = {cli_name: _field(said) or cli_name for cli_name, said in line.arguments.items()}
    declared = {**line.options}
    given = {*map(_field, line.arguments.values()), *line.shaped}
    for option_name, said in declared.items():
        field = option_name.replace("-", "_") if said.field is None else said.field
        given.add(field)
        params.append(_option(option_name, said, by_field.get(field) if field else None))
    for parameter in verb.parameters:  # a field the line does not name: --its-name
        if parameter.name not in given:
            params.append(_option(parameter.name.replace("_", "-"), Opt(), parameter))
    if verb.rolls:
        params += _params(dice.dice_options)
    params.append(say_option())

    members = _enum_fields(command_class)

    def callback(**values: Any) -> None:
        faces, seed = values.pop("faces", None), values.pop("seed", None)
        fields = {renamed.get(key, key): value for key, value in values.items()}
        if line.shape is not None:
            fields = line.shape(fields)
        for field, values_of in members.items():  # a choice's text as its member
            if isinstance(fields.get(field), str):
                fields[field] = values_of.get(fields[field], fields[field])
        ctx = click.get_current_context().find_object(Context)
        assert ctx is not None
        dice.run(ctx, command_class(**fields), faces=faces, seed=seed)

    return click.Command(
        name, params=params, callback=callback, help=helped(verb.help, line.example)
    )


def _enum_fields(command_class: type[Any]) -> dict[str, Mapping[Any, Any]]:
    """The fields typed as an enum (or an enum or None), each with its members by value: the
    command line gives a choice's text, the command holds the member (a text that is no value
    of it is left as it is, for the rule to refuse)."""
    from enum import Enum

    from domain.annotations import resolve_types

    found: dict[str, Mapping[Any, Any]] = {}
    for field in attrs.fields(resolve_types(command_class)):
        for kind in typing.get_args(field.type) or (field.type,):
            if isinstance(kind, type) and issubclass(kind, Enum):
                found[field.name] = kind._value2member_map_
    return found


class Built(MutableMapping[str, click.Command]):
    """Commands by name, each built by its maker the first time it is looked up."""

    def __init__(self, makers: Mapping[str, Callable[[], click.Command]]) -> None:
        self._makers = dict(makers)
        self._built: dict[str, click.Command] = {}

    def __getitem__(self, name: str) -> click.Command:
        command = self._built.get(name)
        if command is None:
            command = self._built[name] = self._makers[name]()
        return command

    def __setitem__(self, name: str, command: click.Command) -> None:
        self._built[name] = command

    def __delitem__(self, name: str) -> None:
        if name not in self:
            raise KeyError(name)
        self._makers.pop(name, None)
        self._built.pop(name, None)

    def __contains__(self, name: object) -> bool:
        return name in self._makers or name in self._built

    def __iter__(self) -> Iterator[str]:
        return iter({**dict.fromkeys(self._makers), **dict.fromkeys(self._built)})

    def __len__(self) -> int:
        return len(self._makers.keys() | self._built.keys())


class GeneratedGroup(click.Group):
    """A system's verbs, generated: each built when first looked up (its verbs of two words
    under their first word, a ``Group``, built together). Every verb narrates already."""

    def __init__(
        self,
        name: str,
        help: str,
        lines: Mapping[str, Line],
        groups: Mapping[str, Group],
        module: str,
    ) -> None:
        super().__init__(name, help=help)
        makers: dict[str, Callable[[], click.Command]] = {}
        for verb, line in lines.items():
            first, _, rest = verb.partition(" ")
            if not rest:
                makers[verb] = _maker(verb, line, module)
            elif first not in makers:
                makers[first] = _group_maker(first, groups[first], lines, module)
        self.commands = Built(makers)


def _maker(name: str, line: Line, module: str) -> Callable[[], click.Command]:
    return lambda: build(name, line, module)


def _group_maker(
    first: str, group: Group, lines: Mapping[str, Line], module: str
) -> Callable[[], click.Command]:
    def make() -> click.Command:
        made = click.Group(first, help=helped(group.help, group.example))
        for verb, line in lines.items():
            head, _, rest = verb.partition(" ")
            if head == first and rest:
                made.add_command(build(rest, line, module))
        if group.extend is not None:
            group.extend(made)
        return made

    return make
