;; The live hints' pixel loops (see grey-frames.ts and docs/adr/0020-live-hints-in-webassembly.md).
;; WebAssembly runs them compiled from the first frame: the same loops in JavaScript ran in V8's
;; interpreter for the first frames of a visit, several times slower than once compiled.
;; Every result is an exact integer sum; the thresholds and the arithmetic on the sums stay in
;; TypeScript (src/domain/photo-quality.ts), shared with the server.
(module
  (memory (export "memory") 1)

  ;; Samples a picture from a luma plane in memory: out[y * width + x] is lut[mean of 4 bytes], the
  ;; bytes at rows[2y] and rows[2y + 1] (addresses of two plane rows) plus columns[2x] and
  ;; columns[2x + 1] (two column indexes). Both tables are i32. width and height are at least 1.
  (func (export "sample")
    (param $out i32) (param $width i32) (param $height i32)
    (param $columns i32) (param $rows i32) (param $lut i32)
    (local $x i32) (local $y i32) (local $above i32) (local $below i32)
    (local $column i32) (local $next i32) (local $cell i32)
    (loop $row
      (local.set $above (i32.load (i32.add (local.get $rows) (i32.shl (local.get $y) (i32.const 3)))))
      (local.set $below (i32.load offset=4 (i32.add (local.get $rows) (i32.shl (local.get $y) (i32.const 3)))))
      (local.set $x (i32.const 0))
      (loop $pixel
        (local.set $cell (i32.add (local.get $columns) (i32.shl (local.get $x) (i32.const 3))))
        (local.set $column (i32.load (local.get $cell)))
        (local.set $next (i32.load offset=4 (local.get $cell)))
        (i32.store8
          (local.get $out)
          (i32.load8_u
            (i32.add
              (local.get $lut)
              (i32.shr_u
                (i32.add
                  (i32.add
                    (i32.add
                      (i32.load8_u (i32.add (local.get $above) (local.get $column)))
                      (i32.load8_u (i32.add (local.get $above) (local.get $next))))
                    (i32.add
                      (i32.load8_u (i32.add (local.get $below) (local.get $column)))
                      (i32.load8_u (i32.add (local.get $below) (local.get $next)))))
                  (i32.const 2))
                (i32.const 2)))))
        (local.set $out (i32.add (local.get $out) (i32.const 1)))
        (br_if $pixel (i32.lt_u (local.tee $x (i32.add (local.get $x) (i32.const 1))) (local.get $width))))
      (br_if $row (i32.lt_u (local.tee $y (i32.add (local.get $y) (i32.const 1))) (local.get $height)))))

  ;; The sum of |a[i] - b[i]| over n bytes.
  (func (export "differenceSum") (param $a i32) (param $b i32) (param $n i32) (result i32)
    (local $end i32) (local $sum i32) (local $d i32)
    (local.set $end (i32.add (local.get $a) (local.get $n)))
    (block $done
      (loop $next
        (br_if $done (i32.ge_u (local.get $a) (local.get $end)))
        (local.set $d (i32.sub (i32.load8_u (local.get $a)) (i32.load8_u (local.get $b))))
        (local.set $sum
          (i32.add (local.get $sum)
            (select (local.get $d) (i32.sub (i32.const 0) (local.get $d)) (i32.ge_s (local.get $d) (i32.const 0)))))
        (local.set $a (i32.add (local.get $a) (i32.const 1)))
        (local.set $b (i32.add (local.get $b) (i32.const 1)))
        (br $next)))
    (local.get $sum))

  ;; Over n bytes: their sum, how many are <= dark and how many (of the rest) are >= bright, stored as
  ;; three i32 at out.
  (func (export "exposureCounts")
    (param $p i32) (param $n i32) (param $dark i32) (param $bright i32) (param $out i32)
    (local $end i32) (local $v i32) (local $sum i32) (local $darkCount i32) (local $brightCount i32)
    (local.set $end (i32.add (local.get $p) (local.get $n)))
    (block $done
      (loop $next
        (br_if $done (i32.ge_u (local.get $p) (local.get $end)))
        (local.set $v (i32.load8_u (local.get $p)))
        (local.set $sum (i32.add (local.get $sum) (local.get $v)))
        (if (i32.le_u (local.get $v) (local.get $dark))
          (then (local.set $darkCount (i32.add (local.get $darkCount) (i32.const 1))))
          (else
            (if (i32.ge_u (local.get $v) (local.get $bright))
              (then (local.set $brightCount (i32.add (local.get $brightCount) (i32.const 1)))))))
        (local.set $p (i32.add (local.get $p) (i32.const 1)))
        (br $next)))
    (i32.store (local.get $out) (local.get $sum))
    (i32.store offset=4 (local.get $out) (local.get $darkCount))
    (i32.store offset=8 (local.get $out) (local.get $brightCount)))

  ;; The sum and the sum of squares of n bytes, stored as two f64 at out (exact: below 2^53).
  (func (export "moments") (param $p i32) (param $n i32) (param $out i32)
    (local $end i32) (local $v i64) (local $sum i64) (local $squares i64)
    (local.set $end (i32.add (local.get $p) (local.get $n)))
    (block $done
      (loop $next
        (br_if $done (i32.ge_u (local.get $p) (local.get $end)))
        (local.set $v (i64.load8_u (local.get $p)))
        (local.set $sum (i64.add (local.get $sum) (local.get $v)))
        (local.set $squares (i64.add (local.get $squares) (i64.mul (local.get $v) (local.get $v))))
        (local.set $p (i32.add (local.get $p) (i32.const 1)))
        (br $next)))
    (f64.store (local.get $out) (f64.convert_i64_s (local.get $sum)))
    (f64.store offset=8 (local.get $out) (f64.convert_i64_s (local.get $squares))))

  ;; The 4-neighbour Laplacian (left + right + up + down - 4 * centre) of a width x height picture at p,
  ;; over the pixels not on its border: the sum and the sum of squares, stored as two f64 at out.
  ;; width and height are at least 3.
  (func (export "laplacianMoments") (param $p i32) (param $width i32) (param $height i32) (param $out i32)
    (local $x i32) (local $y i32) (local $i i32) (local $v i32) (local $sum i64) (local $squares i64)
    (local.set $y (i32.const 1))
    (loop $row
      (local.set $i (i32.add (local.get $p) (i32.add (i32.mul (local.get $y) (local.get $width)) (i32.const 1))))
      (local.set $x (i32.const 1))
      (loop $pixel
        (local.set $v
          (i32.sub
            (i32.add
              (i32.add (i32.load8_u offset=0 (i32.sub (local.get $i) (i32.const 1))) (i32.load8_u offset=1 (local.get $i)))
              (i32.add
                (i32.load8_u (i32.sub (local.get $i) (local.get $width)))
                (i32.load8_u (i32.add (local.get $i) (local.get $width)))))
            (i32.shl (i32.load8_u (local.get $i)) (i32.const 2))))
        (local.set $sum (i64.add (local.get $sum) (i64.extend_i32_s (local.get $v))))
        (local.set $squares (i64.add (local.get $squares) (i64.extend_i32_s (i32.mul (local.get $v) (local.get $v)))))
        (local.set $i (i32.add (local.get $i) (i32.const 1)))
        (br_if $pixel
          (i32.lt_u (local.tee $x (i32.add (local.get $x) (i32.const 1))) (i32.sub (local.get $width) (i32.const 1)))))
      (br_if $row
        (i32.lt_u (local.tee $y (i32.add (local.get $y) (i32.const 1))) (i32.sub (local.get $height) (i32.const 1)))))
    (f64.store (local.get $out) (f64.convert_i64_s (local.get $sum)))
    (f64.store offset=8 (local.get $out) (f64.convert_i64_s (local.get $squares))))
)
