// @provides num, labelled, isShown, eqSign, named, chainSigns, written
// Numbers as viz/maths.py writes them: num(v) = f"{round(v, 10):.6g}" with "e+0" -> "e",
// "e-0" -> "e-". Python rounds exact ties to even both in round() and in "%g"; JS's
// toFixed/toPrecision round them away from zero. So the rounding is done here on the exact
// decimal expansion of the double (toFixed(100) is exact to 100 places), ties to even.

function exactDigits(a) {
  // [integer digits, fraction digits without trailing zeros] of a finite a >= 0
  if (a >= 1e21) return [BigInt(a).toString(), ""];
  const [whole, fraction] = a.toFixed(100).split(".");
  return [whole, fraction.replace(/0+$/, "")];
}

function roundDigits(digits, keep) {
  // digits (a string of decimal digits) rounded to its first `keep` digits, ties to even;
  // the result may be one digit longer (a carry out of the front)
  if (digits.length <= keep) return digits.padEnd(keep, "0");
  const kept = digits.slice(0, keep);
  const first = digits[keep];
  const tail = digits.slice(keep + 1);
  const last = keep > 0 ? Number(kept[keep - 1]) : 0;
  const up = first > "5" || (first === "5" && (/[1-9]/.test(tail) || last % 2 === 1));
  if (!up) return kept;
  const out = kept.split("");
  let i = out.length - 1;
  while (i >= 0 && out[i] === "9") out[i--] = "0";
  if (i < 0) return "1" + out.join("");
  out[i] = String(Number(out[i]) + 1);
  return out.join("");
}

function roundPlaces(value, places) {
  // Python's round(value, places) for a finite float
  const negative = value < 0 || Object.is(value, -0);
  const [whole, fraction] = exactDigits(Math.abs(value));
  const digits = roundDigits(whole + fraction.padEnd(places, "0"), whole.length + places);
  const split = digits.length - places;
  const magnitude = Number(`${digits.slice(0, split)}.${digits.slice(split)}`);
  return negative ? -magnitude : magnitude;
}

function general6(value) {
  // Python's f"{value:.6g}" for a finite float
  const negative = value < 0 || Object.is(value, -0);
  const sign = negative ? "-" : "";
  const a = Math.abs(value);
  if (a === 0) return `${sign}0`;
  const [whole, fraction] = exactDigits(a);
  let exponent;
  let significant;
  if (whole !== "0") {
    exponent = whole.length - 1;
    significant = whole + fraction;
  } else {
    const zeros = fraction.match(/^0*/)[0].length;
    exponent = -(zeros + 1);
    significant = fraction.slice(zeros);
  }
  let kept = roundDigits(significant, 6);
  if (kept.length > 6) {
    exponent += 1;
    kept = kept.slice(0, 6);
  }
  const trim = (text) => (text.includes(".") ? text.replace(/0+$/, "").replace(/\.$/, "") : text);
  if (exponent >= -4 && exponent < 6) {
    const text = exponent >= 0
      ? `${kept.slice(0, exponent + 1)}.${kept.slice(exponent + 1)}`
      : `0.${"0".repeat(-exponent - 1)}${kept}`;
    return sign + trim(text);
  }
  const mantissa = trim(`${kept[0]}.${kept.slice(1)}`);
  const power = String(Math.abs(exponent)).padStart(2, "0");
  return `${sign}${mantissa}e${exponent < 0 ? "-" : "+"}${power}`;
}

export function num(value) {
  // viz.maths.num: a number as a student would write it (0.35, not 0.35000000000000003)
  value = Number(value);
  if (value === 0) return "0";
  if (Number.isNaN(value)) return "nan";
  if (!Number.isFinite(value)) return value > 0 ? "inf" : "-inf";
  return general6(roundPlaces(value, 10)).replace("e+0", "e").replace("e-0", "e-");
}

export function labelled(y, classes) {
  // viz.maths.labelled: a label with its class's name where the name says more ("-1 (setosa)";
  // "-1", not "-1 (-1)"). Outside text: the caller writes it as text
  const value = num(y);
  const name = String(classes[y < 0 ? 0 : 1]);
  return name === value || name === `+${value}` ? value : `${value} (${name})`;
}

// "=" or "≈": "=" only where the number written is the value (viz.maths.is_shown, one rule in
// both languages). A value is exact when the double stands for the decimal it prints as
// (data, an exact run's numbers); a computed float (a run in floats, a length through a square
// root) is not: pass exact = false. Either way num()'s rounding to 6 significant digits makes
// it "≈" wherever the written number differs from the value.
export function isShown(value, exact = true, places = undefined) {
  // (places: the number first rounded to so many decimal places, viz.maths.rounded's)
  value = Number(value);
  if (!exact || !Number.isFinite(value)) return false;
  return Number(num(places === undefined ? value : roundPlaces(value, places))) === value;
}

// the numbers of values: a number, an array (a typed one too) or an array of them
const numbers = (values) => (Array.isArray(values) || ArrayBuffer.isView(values)
  ? Array.from(values).flatMap(numbers) : [values]);

export function eqSign(values, exact = true, places = undefined) {
  // "=" when every value of values (a number or an array) is written as it is, else "≈"
  return numbers(values).every((v) => isShown(v, exact, places)) ? "=" : "\u2248";
}

export function chainSigns(given, computed, result, exact = true, places = undefined) {
  // viz.maths.chain_signs: the two signs of "formula = substitution = result", a line of maths
  // with its numbers. The first "=" only where every number substituted is written as it is
  // (given: the data's and settings' numbers; computed: the run's own, of its exactness,
  // written to places where the page keeps them short), the second only where the result is
  // too: then the arithmetic on the numbers written is the result written
  const first = eqSign(given) === "=" && eqSign(computed, exact, places) === "=";
  return first ? ["=", eqSign(result, exact, places)] : ["\u2248", "\u2248"];
}

export function named(name, values, exact = true) {
  // "x = (0.5, 1)", or "x ≈ (1.33333, 2.66667)" where a coordinate is rounded in writing
  return `${name} ${eqSign(values, exact)} (${values.map(num).join(", ")})`;
}

export function written(value, exact = true, places = undefined) {
  // viz.maths.written: a number where no sign precedes it, "0.5", or "≈ 0.3536" where the
  // number written (to places) is not the value
  const text = num(places === undefined ? value : roundPlaces(Number(value), places));
  return isShown(value, exact, places) ? text : `\u2248 ${text}`;
}
