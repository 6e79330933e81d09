set terminal pngcairo size 1800,3360 font 'sans,10'
set output 'docs/bench.png'
set termoption noenhanced
set multiplot layout 8,3 rowsfirst
set grid ytics
set key top left horizontal
$w0 << EOD
8 290.1 607.1 282.1
64 432.4 718.5 361.2
256 410.1 787.7 378.6
EOD
$m0 << EOD
8 369.5 1751.5 2666.4
64 494.8 2034.0 1561.4
256 1017.0 1303.9 1726.3
EOD
$a0 << EOD
1 4.192 2.370 3.019
2 3.923 2.405 3.042
3 3.441 2.304 2.684
4 3.898 2.580 3.185
EOD
$w1 << EOD
8 210.4 385.1 190.6
64 242.5 418.0 220.4
256 326.4 502.1 295.6
EOD
$m1 << EOD
8 184.4 359.1 164.6
64 187.4 362.9 165.3
256 199.1 374.8 168.3
EOD
$a1 << EOD
EOD
$w2 << EOD
8 449.5 1086.2 590.4
64 475.6 1087.2 608.7
256 644.4 1344.5 731.7
EOD
$m2 << EOD
8 956.2 2188.5 1839.3
64 1015.2 2228.5 1832.8
256 1262.7 2746.6 2109.4
EOD
$a2 << EOD
1 1.952 0.879 1.662
2 2.579 1.402 2.208
3 2.387 1.501 2.217
4 2.674 1.414 2.409
EOD
$w3 << EOD
8 372.3 763.1 496.5
64 464.0 755.3 466.8
256 479.5 842.4 535.7
EOD
$m3 << EOD
8 991.6 2281.6 2464.6
64 947.4 2023.8 2197.4
256 1276.0 2216.9 2496.5
EOD
$a3 << EOD
1 2.854 1.323 2.096
2 3.193 1.912 2.719
3 3.488 1.984 2.877
4 3.281 2.022 2.731
EOD
$w4 << EOD
8 206.2 418.2 174.5
64 213.2 425.4 178.0
256 263.9 475.3 216.9
EOD
$m4 << EOD
8 183.2 395.2 151.5
64 187.2 399.4 152.0
256 201.8 413.2 154.8
EOD
$a4 << EOD
EOD
$w5 << EOD
8 222.0 441.9 271.1
64 296.3 517.2 341.9
256 303.0 527.5 338.3
EOD
$m5 << EOD
8 191.9 411.8 241.0
64 195.9 416.8 241.5
256 209.7 434.2 245.0
EOD
$a5 << EOD
EOD
$w6 << EOD
8 369.6 534.3 266.1
64 431.4 596.7 323.2
256 665.7 822.7 537.8
EOD
$m6 << EOD
8 341.6 506.3 238.1
64 347.2 512.5 239.0
256 388.8 545.8 260.9
EOD
$a6 << EOD
EOD
$w7 << EOD
8 262.3 487.1 204.5
64 279.4 504.4 217.2
256 333.4 556.1 255.4
EOD
$m7 << EOD
8 225.3 450.1 167.5
64 230.4 455.4 168.2
256 249.4 472.1 171.4
EOD
$a7 << EOD
EOD
set title 'x86_64: one writer, overwrite, no reader (ns per event, lower is better)'
set xlabel 'payload (bytes)'
set ylabel 'ns per event'
set yrange [0:1024.0]
set style data histograms
set style histogram clustered gap 1
set style fill solid 0.8 border -1
set boxwidth 0.9
set xtics autofreq
plot $w0 using 2:xtic(1) title 'lrb', '' using 3 title 'kernel', '' using 4 title 'locked'
set title 'x86_64: the same, a reader consuming on another CPU (ns per event)'
set xlabel 'payload (bytes)'
set ylabel 'ns per event'
set yrange [0:3466.3]
set style data histograms
set style histogram clustered gap 1
set style fill solid 0.8 border -1
set boxwidth 0.9
set xtics autofreq
plot $m0 using 2:xtic(1) title 'lrb', '' using 3 title 'kernel', '' using 4 title 'locked'
set title 'x86_64: all CPUs writing, overwrite, 64 bytes (M events/s, higher is better)'
set xlabel 'writer CPUs'
set ylabel 'M events/s'
set yrange [0:5.4]
set style data linespoints
set xtics 1
plot $a0 using 1:2 title 'lrb' lw 2, '' using 1:3 title 'kernel' lw 2, '' using 1:4 title 'locked' lw 2
set title 'x86_64-icount: one writer, overwrite, no reader (instructions per event, lower is better)'
set xlabel 'payload (bytes)'
set ylabel 'instructions per event'
set yrange [0:652.7]
set style data histograms
set style histogram clustered gap 1
set style fill solid 0.8 border -1
set boxwidth 0.9
set xtics autofreq
plot $w1 using 2:xtic(1) title 'lrb', '' using 3 title 'kernel', '' using 4 title 'locked'
set title 'x86_64-icount: the same less the loop and the copy (reserve + commit)'
set xlabel 'payload (bytes)'
set ylabel 'instructions per event'
set yrange [0:487.2]
set style data histograms
set style histogram clustered gap 1
set style fill solid 0.8 border -1
set boxwidth 0.9
set xtics autofreq
plot $m1 using 2:xtic(1) title 'lrb', '' using 3 title 'kernel', '' using 4 title 'locked'
set multiplot next
set title 'arm64: one writer, overwrite, no reader (ns per event, lower is better)'
set xlabel 'payload (bytes)'
set ylabel 'ns per event'
set yrange [0:1747.9]
set style data histograms
set style histogram clustered gap 1
set style fill solid 0.8 border -1
set boxwidth 0.9
set xtics autofreq
plot $w2 using 2:xtic(1) title 'lrb', '' using 3 title 'kernel', '' using 4 title 'locked'
set title 'arm64: the same, a reader consuming on another CPU (ns per event)'
set xlabel 'payload (bytes)'
set ylabel 'ns per event'
set yrange [0:3570.6]
set style data histograms
set style histogram clustered gap 1
set style fill solid 0.8 border -1
set boxwidth 0.9
set xtics autofreq
plot $m2 using 2:xtic(1) title 'lrb', '' using 3 title 'kernel', '' using 4 title 'locked'
set title 'arm64: all CPUs writing, overwrite, 64 bytes (M events/s, higher is better)'
set xlabel 'writer CPUs'
set ylabel 'M events/s'
set yrange [0:3.5]
set style data linespoints
set xtics 1
plot $a2 using 1:2 title 'lrb' lw 2, '' using 1:3 title 'kernel' lw 2, '' using 1:4 title 'locked' lw 2
set title 'arm64-nopac: one writer, overwrite, no reader (ns per event, lower is better)'
set xlabel 'payload (bytes)'
set ylabel 'ns per event'
set yrange [0:1095.1]
set style data histograms
set style histogram clustered gap 1
set style fill solid 0.8 border -1
set boxwidth 0.9
set xtics autofreq
plot $w3 using 2:xtic(1) title 'lrb', '' using 3 title 'kernel', '' using 4 title 'locked'
set title 'arm64-nopac: the same, a reader consuming on another CPU (ns per event)'
set xlabel 'payload (bytes)'
set ylabel 'ns per event'
set yrange [0:3245.5]
set style data histograms
set style histogram clustered gap 1
set style fill solid 0.8 border -1
set boxwidth 0.9
set xtics autofreq
plot $m3 using 2:xtic(1) title 'lrb', '' using 3 title 'kernel', '' using 4 title 'locked'
set title 'arm64-nopac: all CPUs writing, overwrite, 64 bytes (M events/s, higher is better)'
set xlabel 'writer CPUs'
set ylabel 'M events/s'
set yrange [0:4.5]
set style data linespoints
set xtics 1
plot $a3 using 1:2 title 'lrb' lw 2, '' using 1:3 title 'kernel' lw 2, '' using 1:4 title 'locked' lw 2
set title 'arm64-icount: one writer, overwrite, no reader (instructions per event, lower is better)'
set xlabel 'payload (bytes)'
set ylabel 'instructions per event'
set yrange [0:617.9]
set style data histograms
set style histogram clustered gap 1
set style fill solid 0.8 border -1
set boxwidth 0.9
set xtics autofreq
plot $w4 using 2:xtic(1) title 'lrb', '' using 3 title 'kernel', '' using 4 title 'locked'
set title 'arm64-icount: the same less the loop and the copy (reserve + commit)'
set xlabel 'payload (bytes)'
set ylabel 'instructions per event'
set yrange [0:537.2]
set style data histograms
set style histogram clustered gap 1
set style fill solid 0.8 border -1
set boxwidth 0.9
set xtics autofreq
plot $m4 using 2:xtic(1) title 'lrb', '' using 3 title 'kernel', '' using 4 title 'locked'
set multiplot next
set title 'riscv64-icount: one writer, overwrite, no reader (instructions per event, lower is better)'
set xlabel 'payload (bytes)'
set ylabel 'instructions per event'
set yrange [0:685.8]
set style data histograms
set style histogram clustered gap 1
set style fill solid 0.8 border -1
set boxwidth 0.9
set xtics autofreq
plot $w5 using 2:xtic(1) title 'lrb', '' using 3 title 'kernel', '' using 4 title 'locked'
set title 'riscv64-icount: the same less the loop and the copy (reserve + commit)'
set xlabel 'payload (bytes)'
set ylabel 'instructions per event'
set yrange [0:564.5]
set style data histograms
set style histogram clustered gap 1
set style fill solid 0.8 border -1
set boxwidth 0.9
set xtics autofreq
plot $m5 using 2:xtic(1) title 'lrb', '' using 3 title 'kernel', '' using 4 title 'locked'
set multiplot next
set title 'i386-icount: one writer, overwrite, no reader (instructions per event, lower is better)'
set xlabel 'payload (bytes)'
set ylabel 'instructions per event'
set yrange [0:1069.5]
set style data histograms
set style histogram clustered gap 1
set style fill solid 0.8 border -1
set boxwidth 0.9
set xtics autofreq
plot $w6 using 2:xtic(1) title 'lrb', '' using 3 title 'kernel', '' using 4 title 'locked'
set title 'i386-icount: the same less the loop and the copy (reserve + commit)'
set xlabel 'payload (bytes)'
set ylabel 'instructions per event'
set yrange [0:709.5]
set style data histograms
set style histogram clustered gap 1
set style fill solid 0.8 border -1
set boxwidth 0.9
set xtics autofreq
plot $m6 using 2:xtic(1) title 'lrb', '' using 3 title 'kernel', '' using 4 title 'locked'
set multiplot next
set title 'arm-icount: one writer, overwrite, no reader (instructions per event, lower is better)'
set xlabel 'payload (bytes)'
set ylabel 'instructions per event'
set yrange [0:722.9]
set style data histograms
set style histogram clustered gap 1
set style fill solid 0.8 border -1
set boxwidth 0.9
set xtics autofreq
plot $w7 using 2:xtic(1) title 'lrb', '' using 3 title 'kernel', '' using 4 title 'locked'
set title 'arm-icount: the same less the loop and the copy (reserve + commit)'
set xlabel 'payload (bytes)'
set ylabel 'instructions per event'
set yrange [0:613.7]
set style data histograms
set style histogram clustered gap 1
set style fill solid 0.8 border -1
set boxwidth 0.9
set xtics autofreq
plot $m7 using 2:xtic(1) title 'lrb', '' using 3 title 'kernel', '' using 4 title 'locked'
set multiplot next
unset multiplot
