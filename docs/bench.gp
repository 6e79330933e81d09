set terminal pngcairo size 1800,2100 font 'sans,10'
set output 'docs/bench.png'
set termoption noenhanced
set multiplot layout 5,3 rowsfirst
set grid ytics
set key top left horizontal
$w0 << EOD
8 265.9 509.9 324.8
64 247.9 460.2 372.0
256 410.7 579.2 372.3
EOD
$m0 << EOD
8 387.0 919.0 774.2
64 328.5 708.7 896.2
256 467.7 804.6 1170.7
EOD
$a0 << EOD
1 3.880 2.221 3.013
2 5.807 3.996 4.800
3 6.700 4.437 5.170
4 6.741 4.286 5.194
EOD
$w1 << EOD
8 211.3 385.2 190.6
64 243.5 418.0 220.5
256 328.6 502.1 295.6
EOD
$m1 << EOD
8 185.3 359.2 164.6
64 188.4 362.9 165.4
256 201.3 374.8 168.3
EOD
$a1 << EOD
EOD
$w2 << EOD
8 447.8 973.6 598.0
64 461.6 1301.4 674.9
256 618.7 1304.6 798.4
EOD
$m2 << EOD
8 498.7 1444.1 844.1
64 625.1 1279.6 939.6
256 924.9 1660.4 1182.0
EOD
$a2 << EOD
1 2.366 0.971 1.762
2 3.828 1.804 2.762
3 3.403 1.721 2.585
4 3.351 1.728 3.064
EOD
$w3 << EOD
8 312.7 763.3 423.8
64 315.3 638.9 366.9
256 474.2 782.5 479.7
EOD
$m3 << EOD
8 408.7 758.3 543.0
64 458.4 787.7 574.7
256 609.2 1225.6 708.9
EOD
$a3 << EOD
1 2.172 1.470 2.528
2 4.054 2.944 4.566
3 4.372 3.338 4.947
4 4.337 2.989 4.864
EOD
$w4 << EOD
8 203.2 418.2 174.5
64 209.9 425.2 177.9
256 262.3 475.1 216.9
EOD
$m4 << EOD
8 180.2 395.2 151.5
64 183.9 399.2 151.9
256 200.2 413.0 154.8
EOD
$a4 << EOD
EOD
set title 'x86_64: one writer, overwrite, no reader (ns per event, lower is better)'
set xlabel 'payload (bytes)'
set ylabel 'ns per event'
set yrange [0:753.0]
set style data histograms
set style histogram clustered gap 1
set style fill solid 0.8 border -1
set boxwidth 0.9
set xtics autofreq
plot $w0 using 2:xtic(1) title 'lrb', '' using 3 title 'kernel', '' using 4 title 'locked'
set title 'x86_64: the same, a reader consuming on another CPU (ns per event)'
set xlabel 'payload (bytes)'
set ylabel 'ns per event'
set yrange [0:1521.9]
set style data histograms
set style histogram clustered gap 1
set style fill solid 0.8 border -1
set boxwidth 0.9
set xtics autofreq
plot $m0 using 2:xtic(1) title 'lrb', '' using 3 title 'kernel', '' using 4 title 'locked'
set title 'x86_64: all CPUs writing, overwrite, 64 bytes (M events/s, higher is better)'
set xlabel 'writer CPUs'
set ylabel 'M events/s'
set yrange [0:8.8]
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
set yrange [0:1696.0]
set style data histograms
set style histogram clustered gap 1
set style fill solid 0.8 border -1
set boxwidth 0.9
set xtics autofreq
plot $w2 using 2:xtic(1) title 'lrb', '' using 3 title 'kernel', '' using 4 title 'locked'
set title 'arm64: the same, a reader consuming on another CPU (ns per event)'
set xlabel 'payload (bytes)'
set ylabel 'ns per event'
set yrange [0:2158.5]
set style data histograms
set style histogram clustered gap 1
set style fill solid 0.8 border -1
set boxwidth 0.9
set xtics autofreq
plot $m2 using 2:xtic(1) title 'lrb', '' using 3 title 'kernel', '' using 4 title 'locked'
set title 'arm64: all CPUs writing, overwrite, 64 bytes (M events/s, higher is better)'
set xlabel 'writer CPUs'
set ylabel 'M events/s'
set yrange [0:5.0]
set style data linespoints
set xtics 1
plot $a2 using 1:2 title 'lrb' lw 2, '' using 1:3 title 'kernel' lw 2, '' using 1:4 title 'locked' lw 2
set title 'arm64-nopac: one writer, overwrite, no reader (ns per event, lower is better)'
set xlabel 'payload (bytes)'
set ylabel 'ns per event'
set yrange [0:1017.2]
set style data histograms
set style histogram clustered gap 1
set style fill solid 0.8 border -1
set boxwidth 0.9
set xtics autofreq
plot $w3 using 2:xtic(1) title 'lrb', '' using 3 title 'kernel', '' using 4 title 'locked'
set title 'arm64-nopac: the same, a reader consuming on another CPU (ns per event)'
set xlabel 'payload (bytes)'
set ylabel 'ns per event'
set yrange [0:1593.3]
set style data histograms
set style histogram clustered gap 1
set style fill solid 0.8 border -1
set boxwidth 0.9
set xtics autofreq
plot $m3 using 2:xtic(1) title 'lrb', '' using 3 title 'kernel', '' using 4 title 'locked'
set title 'arm64-nopac: all CPUs writing, overwrite, 64 bytes (M events/s, higher is better)'
set xlabel 'writer CPUs'
set ylabel 'M events/s'
set yrange [0:6.4]
set style data linespoints
set xtics 1
plot $a3 using 1:2 title 'lrb' lw 2, '' using 1:3 title 'kernel' lw 2, '' using 1:4 title 'locked' lw 2
set title 'arm64-icount: one writer, overwrite, no reader (instructions per event, lower is better)'
set xlabel 'payload (bytes)'
set ylabel 'instructions per event'
set yrange [0:617.6]
set style data histograms
set style histogram clustered gap 1
set style fill solid 0.8 border -1
set boxwidth 0.9
set xtics autofreq
plot $w4 using 2:xtic(1) title 'lrb', '' using 3 title 'kernel', '' using 4 title 'locked'
set title 'arm64-icount: the same less the loop and the copy (reserve + commit)'
set xlabel 'payload (bytes)'
set ylabel 'instructions per event'
set yrange [0:536.9]
set style data histograms
set style histogram clustered gap 1
set style fill solid 0.8 border -1
set boxwidth 0.9
set xtics autofreq
plot $m4 using 2:xtic(1) title 'lrb', '' using 3 title 'kernel', '' using 4 title 'locked'
set multiplot next
unset multiplot
